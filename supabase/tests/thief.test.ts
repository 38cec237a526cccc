/**
 * The thief, with every copy of the database one can take (supabase/security.md, "What each copy
 * opens"), after signups across five hours with a crash (immediate stop), a skipped hour and a
 * clean restart in between, on a server of its own that logs every statement with its parameters
 * and archives its WAL. Each copy is counted by what it opens:
 * - the dump and the stopped data directory: at most the current hour's signups;
 * - the stopped data directory after `keys remove` and the end of its hour, no signup since: nothing;
 * - pg_wal/, the WAL archive, a base backup and the server log: nothing (the log no signed-up address either);
 * - a live intruder's keys of one hour: that hour's signups, nothing two hours later.
 *
 * How a copy is searched: a sealing key is 64 bytes (AES key ‖ HMAC key). A byte string opens a
 * row only if it is that row's key (any other fails the row's HMAC tag, but for a 2⁻²⁵⁶ chance), so
 * trying every 64-byte window of a copy against every row gives the same count as looking for
 * each real key, unwrapped with the owner's key, at every offset of the copy: raw, as hex and as
 * base64, whole or as its two halves apart.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOwnerKey, unwrap } from '../../cli/seal/owner-key';
import { waitlist } from '../../cli/tests/run-cli';
import { insertEmail } from '../harness/api-request';
import { startCluster, SUPERUSER, type Cluster } from '../harness/cluster';
import { connect, ownerUrl, type ConnectionInfo } from '../harness/database';
import { createWaitlistDatabase } from '../harness/migrations';
import { keyPair, sealList } from '../harness/sealed';
import { addressesIn, filesOf } from './copies';
import { withClient } from './use-database';
import { CLEAR_KEYS, openWith, sealedRows, setSealClock, type Sealed } from './sealing';

const run = promisify(execFile);

const BEFORE = ['Before.Init@Example.com', 'jo\u0308rg.before@bu\u0308cher.de'];
/** The signups of each hour, as typed; hour 2 has none (and no job runs in it). */
const SIGNUPS = {
  h0: ['Hour0.Ada@Example.COM', 'zoe\u0301@example.com'],
  h1BeforeCrash: ['hour1-before-crash@example.com', '用户@例子.广告'],
  h1AfterCrash: ['Hour1.After.Crash@Example.org', 'ÅSA@EXAMPLE.COM'],
  h3BeforeRestart: ['=1+2@example.com', '\u01c5@example.com'],
  h3AfterRestart: ['hour3.after.restart@example.com', '😀@example.com'],
  h4: ['current.hour@example.com', 'Current.Ümlaut@Example.de'],
};
const AFTER_INIT = Object.values(SIGNUPS).flat();
const hour = (n: number) => new Date(Date.UTC(2030, 0, 7, n)).toISOString();

/** Every way a key's bytes can sit in a file: raw, hex (either case), base64. */
const encodings = (bytes: Buffer) => [
  bytes,
  Buffer.from(bytes.toString('hex')),
  Buffer.from(bytes.toString('hex').toUpperCase()),
  Buffer.from(bytes.toString('base64')),
];
const holds = (copy: Buffer, bytes: Buffer) => encodings(bytes).some((form) => copy.includes(form));
/** Those of `addresses` that `copy` holds in any of their forms (copies.ts). */
const addressesHeld = (copy: Buffer, addresses: string[]) =>
  addressesIn([{ path: 'the copy', bytes: copy }], addresses).flatMap((file) => file.addresses);

describe('a thief with any copy of the database', () => {
  const work = mkdtempSync(join(tmpdir(), 'waitlist-thief-'));
  let cluster: Cluster;
  let info: ConnectionInfo;
  let owner: Client;
  let ownerKey = '';
  /** What the list held before keys init: the seed's signups and BEFORE. */
  let beforeInit: string[] = [];
  /** Every hourly key in clear (unwrapped with the owner's key), by id. */
  const keys = new Map<bigint, Buffer>();
  let rows: Sealed[] = [];
  /** What a live intruder read from the clear-key tables at the end of hour 1. */
  let intruderKeys: Buffer[] = [];
  const copies: { dump: string; dataDirectory: Buffer; afterRemoval: Buffer; wal: Buffer; archive: Buffer } = {
    dump: '',
    dataDirectory: Buffer.alloc(0),
    afterRemoval: Buffer.alloc(0),
    wal: Buffer.alloc(0),
    archive: Buffer.alloc(0),
  };
  let baseBackup: Buffer = Buffer.alloc(0);
  let log: Buffer = Buffer.alloc(0);
  /** Where the log stood once the database was migrated. */
  let migratedAt = 0;

  const sign = (addresses: string[]) =>
    withClient(info, 'authenticator', async (api) => {
      for (const address of addresses) await insertEmail(api, address);
    });
  /** Stops the server as `mode` says (the owner's session ends first), then starts it and reconnects. */
  const restart = async (mode: 'immediate' | 'fast', between?: () => Promise<void>) => {
    await owner.end();
    await cluster.restart(mode, between);
    owner = await connect(info, 'postgres');
  };
  /** The sealing clock stopped at hour `n`, then the minute job, as pg_cron runs it. */
  const atHour = async (n: number) => {
    await setSealClock(owner, hour(n));
    await owner.query('select private.retire_hour_keys()');
  };

  beforeAll(async () => {
    cluster = await startCluster({
      durable: true, // a commit survives the crash, as on a real server
      settings: [
        'log_statement=all',
        'log_min_duration_statement=0',
        'log_parameter_max_length=-1',
        'log_parameter_max_length_on_error=-1',
        'archive_mode=on',
        // Run in the data directory: the archive sits beside it, in the server's own folder.
        `archive_command='mkdir -p ../archive && cp %p ../archive/%f'`,
      ],
    });
    info = await createWaitlistDatabase(cluster);
    migratedAt = statSync(cluster.logFile).size; // the migrations' own text quotes an address or two
    owner = await connect(info, 'postgres');
    await sign(BEFORE);
    beforeInit = (await owner.query<{ email: string }>('select email from public.waiting_list')).rows.map(
      (r) => r.email,
    );
    ownerKey = await sealList(owner);

    await atHour(0);
    await sign(SIGNUPS.h0);
    await atHour(1);
    await sign(SIGNUPS.h1BeforeCrash);
    await restart('immediate');
    await sign(SIGNUPS.h1AfterCrash);
    intruderKeys = await withClient(info, SUPERUSER, async (client) =>
      (await client.query<{ clear_key: Buffer }>(CLEAR_KEYS)).rows.map((row) => row.clear_key),
    );
    await setSealClock(owner, hour(2)); // hour 2: no signup, no job
    await atHour(3);
    await sign(SIGNUPS.h3BeforeRestart);
    await restart('fast');
    await sign(SIGNUPS.h3AfterRestart);
    await atHour(4);
    await sign(SIGNUPS.h4);

    const connection = ['-h', cluster.socketDir, '-p', String(cluster.port), '-U', SUPERUSER];
    copies.dump = (
      await run(`${cluster.binDir}/pg_dump`, [...connection, '-d', info.database], { maxBuffer: 1 << 28 })
    ).stdout;
    const backup = join(work, 'base-backup');
    await run(`${cluster.binDir}/pg_basebackup`, [...connection, '-D', backup, '-X', 'stream', '-c', 'fast']);
    baseBackup = filesOf(backup);
    await restart('fast', async () => {
      const copy = join(work, 'data');
      cpSync(cluster.dataDir, copy, { recursive: true, filter: (source) => !source.includes('/pg_wal') });
      copies.dataDirectory = filesOf(copy);
      copies.wal = filesOf(join(cluster.dataDir, 'pg_wal'));
    });
    copies.archive = filesOf(join(cluster.socketDir, 'archive'));
    log = readFileSync(cluster.logFile);
    // Still hour 4: a second holder, removed (hour 4's clear key deleted with it); hour 5 begins, no signup.
    await owner.query('insert into private.key_holders (public_key) values ($1)', [
      Buffer.from((await keyPair()).publicKey),
    ]);
    const { rows: added } = await owner.query(
      'select extensions.pgp_key_id(public_key) as key_id from private.key_holders order by id desc limit 1',
    );
    const removed = await waitlist(['keys', 'remove', added[0].key_id, '--yes'], { DATABASE_URL: ownerUrl(info) });
    expect(removed.code, removed.stderr).toBe(0);
    await atHour(5);
    await restart('fast', async () => {
      const copy = join(work, 'after-removal');
      cpSync(cluster.dataDir, copy, { recursive: true, filter: (source) => !source.includes('/pg_wal') });
      copies.afterRemoval = filesOf(copy);
    });

    const privateKey = await parseOwnerKey(ownerKey, 'the owner key');
    for (const row of (
      await owner.query<{ id: string; wrapped: Buffer }>(
        'select hour_key_id as id, wrapped from private.wrapped_hour_keys',
      )
    ).rows) {
      keys.set(BigInt(row.id), await unwrap(privateKey, row.wrapped));
    }
    rows = await sealedRows(owner);
  }, 300_000);

  afterAll(async () => {
    await owner?.end().catch(() => undefined);
    await cluster?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** The addresses a copy opens: those of every row whose key it holds, whole or in halves. */
  const opensFrom = (copy: Buffer) => {
    const held = [...keys].filter(
      ([, key]) => holds(copy, key) || (holds(copy, key.subarray(0, 32)) && holds(copy, key.subarray(32))),
    );
    return rows.flatMap((row) => held.flatMap(([id, key]) => (id === row.keyId ? [openWith(key, row)!] : [])));
  };

  it('sealed every signup, with a new key after the crash and one key per hour', () => {
    expect(beforeInit).toEqual(expect.arrayContaining(BEFORE));
    expect(rows).toHaveLength(beforeInit.length + AFTER_INIT.length);
    // keys init's hour, hours 0, 1 (twice: before and after the crash), 3 and 4
    expect(keys.size).toBe(6);
  });

  it('a dump of every schema: no address in any form; its keys open the current hour only', () => {
    expect(addressesHeld(Buffer.from(copies.dump), [...beforeInit, ...AFTER_INIT])).toEqual([]);
    // The thief's own way: every clear key in the dump, tried on every sealed row.
    const inDump = [...copies.dump.matchAll(/\\\\x([0-9a-f]{128})\b/g)].map((m) => Buffer.from(m[1], 'hex'));
    const opened = rows.flatMap((row) => inDump.flatMap((key) => openWith(key, row) ?? []));
    expect(opened.sort()).toEqual([...SIGNUPS.h4].sort());
    expect(opensFrom(Buffer.from(copies.dump)).sort()).toEqual([...SIGNUPS.h4].sort());
  });

  it('the data directory of a cleanly stopped server opens the current hour only, and holds no address', () => {
    expect(opensFrom(copies.dataDirectory).sort()).toEqual([...SIGNUPS.h4].sort());
    expect(addressesHeld(copies.dataDirectory, AFTER_INIT)).toEqual([]);
  });

  it('the data directory of a cleanly stopped server after keys remove and the end of its hour opens nothing', () => {
    expect(copies.afterRemoval.length).toBeGreaterThan(1 << 20);
    expect(opensFrom(copies.afterRemoval)).toEqual([]);
  });

  it('pg_wal/, the WAL archive and a base backup (what a replica is made of) open nothing', () => {
    expect(copies.wal.length).toBeGreaterThan(16 << 20);
    expect(copies.archive.length).toBeGreaterThan(0);
    expect(opensFrom(copies.wal)).toEqual([]);
    expect(opensFrom(copies.archive)).toEqual([]);
    expect(opensFrom(baseBackup)).toEqual([]);
    expect(addressesHeld(copies.wal, AFTER_INIT)).toEqual([]);
  });

  it('the server log, with every statement and parameter, opens nothing and holds no signed-up address', () => {
    expect(log.toString()).toContain('LOG:  statement:');
    expect(opensFrom(log)).toEqual([]);
    // authenticator's role settings (20261128100400_logging.sql) win over the server's.
    expect(addressesHeld(log.subarray(migratedAt), [...BEFORE, ...AFTER_INIT])).toEqual([]);
  });

  it('a live intruder’s keys of hour 1 open that hour’s signups since the crash, and nothing of hour 3', () => {
    const opened = rows.flatMap((row) => intruderKeys.flatMap((key) => openWith(key, row) ?? []));
    expect(opened.sort()).toEqual([...SIGNUPS.h1AfterCrash].sort());
    const hour3 = new Set([...SIGNUPS.h3BeforeRestart, ...SIGNUPS.h3AfterRestart]);
    expect(opened.filter((address) => hour3.has(address))).toEqual([]);
  });
});
