/**
 * `waitlist baseline` without the Supabase CLI (a database without its history table; the history's
 * repair is proven by scripts/db-push-check.ts): it refuses a list sealed by the hash ratchet and
 * changes nothing, asks first, moves a list of the old chain, and leaves the baseline alone.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEmail } from '../../supabase/harness/api-request';
import { connect, createEmptyDatabase, ownerUrl, type ConnectionInfo } from '../../supabase/harness/database';
import { migrate } from '../../supabase/harness/migrations';
import { CHAIN_2026_11_26 } from '../../supabase/tests/chain';
import { sharedDatabase } from '../../supabase/tests/shared-server';
import { BASELINE, checkMigrations } from '../database/migrations';
import { waitlist } from './run-cli';

type OldChain = { info: ConnectionInfo; owner: Client };

/** A database of the old chain with one signup: sealed by the ratchet, or stored as typed. */
async function oldChain(name: string, ratchet: boolean) {
  const info = await createEmptyDatabase(sharedDatabase(), name);
  await migrate(info, { files: CHAIN_2026_11_26 });
  const owner = await connect(info, 'postgres');
  if (ratchet) await owner.query('select private.set_seal_key(1, extensions.gen_random_bytes(32))');
  const api = await connect(info, 'authenticator');
  await insertEmail(api, 'ada@example.com').finally(() => api.end());
  return { info, owner };
}

const tableOf = async (owner: Client) =>
  (
    await owner.query(
      `select to_regclass('private.waiting_list_keys')::text as old,
              to_regclass('private.signup_addresses')::text as new`,
    )
  ).rows[0];

describe('waitlist baseline', () => {
  const databases: OldChain[] = [];
  let ratchet: OldChain;
  let plain: OldChain;

  beforeAll(async () => {
    ratchet = await oldChain('cli_baseline_ratchet', true);
    plain = await oldChain('cli_baseline_plain', false);
    databases.push(ratchet, plain);
  }, 120_000);
  afterAll(() => Promise.all(databases.map(({ owner }) => owner.end())));

  it('refuses a list sealed by the hash ratchet, and changes nothing', async () => {
    const run = await waitlist(['baseline', '--yes'], { DATABASE_URL: ownerUrl(ratchet.info) });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'waitlist: 1 signup sealed by the hash ratchet, which the baseline no longer has: move them to hour keys first ' +
        '(`npm run waitlist -- keys upgrade` in a clone of commit a854308), then run this again.\n',
    );
    expect(await tableOf(ratchet.owner)).toEqual({ old: 'private.waiting_list_keys', new: null });
  });

  it('asks first: off a terminal, nothing changes without --yes', async () => {
    const run = await waitlist(['baseline'], { DATABASE_URL: ownerUrl(plain.info) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('waitlist: Not on a terminal: add --yes to confirm.');
    expect(await tableOf(plain.owner)).toEqual({ old: 'private.waiting_list_keys', new: null });
    // health names it, without a history table to read: by the old chain's tables.
    expect(await checkMigrations(plain.owner)).toEqual({
      check: 'migrations',
      outcome: 'setup',
      says: "The database is on the migrations this clone's baseline replaced (private.seal_chain exists).",
      fix: 'Move it onto the baseline: npm run waitlist -- baseline (docs/operations.md).',
    });
  });

  it('moves a list of the old chain onto the baseline, keeping its signup; then has nothing to do', async () => {
    const run = await waitlist(['baseline', '--yes'], { DATABASE_URL: ownerUrl(plain.info) });
    expect(run.stderr).toBe(
      'The clean-up drops the hash ratchet and renames tables and columns, keeping every signup.\n' +
        'Done: the database is on the baseline. Next, the files after it: ' +
        'npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL".\n',
    );
    expect(run.code).toBe(0);
    expect(await tableOf(plain.owner)).toEqual({ old: null, new: 'private.signup_addresses' });
    const { rows } = await plain.owner.query('select email from public.waiting_list order by id');
    expect(rows).toEqual([{ email: 'taken@example.com' }, { email: 'ada@example.com' }]);
    // On the baseline: what health may still miss are the files after it, db push's (as the command says).
    const named = (await checkMigrations(plain.owner)).says.match(/\d{14}(?=_)/g) ?? [];
    expect(named.filter((version) => version <= BASELINE.at(-1)!)).toEqual([]);

    const again = await waitlist(['baseline', '--yes'], { DATABASE_URL: ownerUrl(plain.info) });
    expect(again).toMatchObject({ code: 0, stderr: 'The database is on the baseline: nothing to do.\n' });
  });
});
