/**
 * The thief: everything the database holds, taken with pg_dump (every schema), after signups
 * across several hourly steps of the ratchet. No address is in it in any form, and everything in
 * it opens only the current step's signups.
 */
import { execFile } from 'node:child_process';
import { createDecipheriv, createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useOwnDatabase } from '../../cli/tests/own-database';
import { waitlist } from '../../cli/tests/run-cli';
import { LABELS } from '../../cli/seal/ratchet';
import { insertEmail } from '../harness/api-request';
import { SUPERUSER } from '../harness/cluster';
import { connect } from '../harness/database';

const run = promisify(execFile);
const NAME = 'thief';
const db = useOwnDatabase(NAME);

/** Signed up before keys init, then in each of four steps after it. */
const BEFORE = ['Before.Init@Example.com', 'jo\u0308rg.before@bu\u0308cher.de'];
const STEPS = [
  ['Step1.Ada@Example.COM', 'zoe\u0301@example.com'],
  ['step2@example.com', '用户@例子.广告'],
  ['Step3-Å@Example.org', '=1+2@example.com'],
  ['current.hour@example.com', 'Current.Ümlaut@Example.de'],
];
const EVERY = [...BEFORE, ...STEPS.flat()];

/** Each form a careless store could keep: as typed, lower case, NFC, NFD, and their UTF-8 in hex. */
function forms(address: string): string[] {
  const texts = [address, address.toLowerCase(), address.normalize('NFC'), address.normalize('NFD')];
  const lowerNfc = address.normalize('NFC').toLowerCase();
  return [...new Set([...texts, lowerNfc, ...[...texts, lowerNfc].map((t) => Buffer.from(t).toString('hex'))])];
}

/** The rows of one COPY block of a plain pg_dump, as tab-separated text fields. */
function copyRows(dump: string, table: string): string[][] {
  const start = dump.indexOf(`COPY ${table} (`);
  if (start === -1) return [];
  const body = dump.slice(dump.indexOf('\n', start) + 1, dump.indexOf('\n\\.\n', start));
  return body ? body.split('\n').map((line) => line.split('\t')) : [];
}

const bytea = (field: string) => Buffer.from(field.replace(/^\\\\x/, ''), 'hex');
const hmac = (key: Buffer, ...parts: Buffer[]) =>
  parts.reduce((h, p) => h.update(p), createHmac('sha256', key)).digest();

/** What the thief can open with the keys of one step: the address, or null when the tag does not verify. */
function open(step: number, id: bigint, sealed: Buffer, encryption: Buffer, authentication: Buffer): string | null {
  const header = Buffer.alloc(12);
  header.writeInt32BE(step);
  header.writeBigInt64BE(id, 4);
  const [iv, ciphertext, tag] = [sealed.subarray(0, 16), sealed.subarray(16, -32), sealed.subarray(-32)];
  if (!hmac(authentication, header, iv, ciphertext).equals(tag)) return null;
  const decipher = createDecipheriv('aes-256-cbc', encryption, iv);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

describe('a thief with a dump of the whole database', () => {
  let api: Client;
  let dump = '';

  beforeAll(async () => {
    api = await connect({ ...inject('database'), database: NAME }, 'authenticator');
    for (const email of BEFORE) await insertEmail(api, email);
    expect((await waitlist(['keys', 'init', '--yes'])).code).toBe(0);
    for (const [i, step] of STEPS.entries()) {
      if (i > 0) await db.owner.query('select private.advance_seal_key()');
      for (const email of step) await insertEmail(api, email);
    }
    const info = inject('database');
    const { stdout } = await run(
      `${info.binDir}/pg_dump`,
      ['-h', info.host, '-p', String(info.port), '-U', SUPERUSER, '-d', NAME],
      { maxBuffer: 1 << 28 },
    );
    dump = stdout;
  });
  afterAll(() => api?.end());

  it('finds no address in it in any form', () => {
    expect(dump).toContain('COPY private.waiting_list_keys');
    for (const address of EVERY) for (const form of forms(address)) expect(dump, address).not.toContain(form);
  });

  it('opens only the current step’s signups with everything in it', () => {
    const [key] = copyRows(dump, 'private.seal_key');
    const columns = /COPY private\.seal_key \(([^)]*)\)/.exec(dump)![1].split(', ');
    const field = (name: string) => key[columns.indexOf(name)];
    let chain = bytea(field('chain_key'));
    // The keys in the dump, and every key the thief can derive from its chain key going forward.
    const tries = [{ encryption: bytea(field('encryption_key')), authentication: bytea(field('authentication_key')) }];
    for (let step = 0; step < 24; step += 1) {
      tries.push({
        encryption: hmac(chain, Buffer.from(LABELS.encryption)),
        authentication: hmac(chain, Buffer.from(LABELS.authentication)),
      });
      chain = hmac(chain, Buffer.from(LABELS.next));
    }
    const keyColumns = /COPY private\.waiting_list_keys \(([^)]*)\)/.exec(dump)![1].split(', ');
    const opened = copyRows(dump, 'private.waiting_list_keys').flatMap((row) => {
      const value = (name: string) => row[keyColumns.indexOf(name)];
      if (value('sealed') === '\\N') return [];
      const step = Number(value('step'));
      return tries.flatMap(({ encryption, authentication }) => {
        const address = open(step, BigInt(value('id')), bytea(value('sealed')), encryption, authentication);
        return address === null ? [] : [address];
      });
    });
    expect([...new Set(opened)].sort()).toEqual([...STEPS[STEPS.length - 1]].sort());
  });
});
