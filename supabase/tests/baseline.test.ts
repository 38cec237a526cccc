/**
 * The baseline and the chain it replaced: a database migrated with the chain of 2026-11-26 and
 * sealed, moved by `waitlist baseline`'s transaction (cli/commands/baseline.ts: the clean-up, then
 * every baseline file), then given the later migrations as `supabase db push` gives them (its owner
 * key held twice before the holders became one row per key), has exactly the schema of a fresh
 * database, and keeps its list. Compared in full: `pg_dump --schema-only` of both (tables, columns,
 * constraints, indexes, functions, triggers, policies, grants and every COMMENT ON), normalised only
 * as supabase/schema.sql is (the per-dump `\restrict` key and the server's minor version:
 * harness/schema.ts), plus what that dump leaves out: the guard's numbered counter sequences, the
 * pg_cron jobs and the roles' settings. Each database on a server of its own, so each has pg_cron
 * (it runs in one database per server).
 */
import { basename } from 'node:path';
import * as openpgp from 'openpgp';
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveToBaseline } from '../../cli/commands/baseline';
import { BASELINE } from '../../cli/database/migrations';
import { insertEmail, refusal } from '../harness/api-request';
import { startCluster, type Cluster } from '../harness/cluster';
import { connect, createSupabaseDatabase, type ConnectionInfo } from '../harness/database';
import { migrate, migrationFiles } from '../harness/migrations';
import { dumpSchema } from '../harness/schema';
import { sealList, storedAddresses } from '../harness/sealed';
import { CHAIN_2026_11_26 } from './chain';

/** What a database holds that supabase/schema.sql's dump does not show. */
async function beyondTheDump(owner: Client) {
  const jobs = await owner.query(
    'select jobname, schedule, command, database, username, active from cron.job order by jobname',
  );
  const settings = await owner.query(
    `select r.rolname, s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
     where r.rolname in ('authenticator', 'postgres', 'waitlist_unsubscribe') order by 1`,
  );
  // Every sequence of schema private, the guard's 1,280 numbered counters among them (harness/schema.ts
  // leaves those out of the dump); privileges as pg_dump reads them (no ACL stored means the default).
  const counters = await owner.query(
    `select c.relname, coalesce(c.relacl, acldefault('s', c.relowner))::text as privileges, s.seqtypid::regtype::text
     from pg_class c join pg_sequence s on s.seqrelid = c.oid
     where c.relnamespace = 'private'::regnamespace order by 1`,
  );
  return { jobs: jobs.rows, settings: settings.rows, counters: counters.rows };
}

/**
 * The owner key held twice, as the holders' byte-unique index let it: exported again with one more
 * user ID (other bytes), with the hour keys' copies, the first hour key's copy left to the second row only.
 */
async function holdTwice(owner: Client, ownerKey: string) {
  const privateKey = await openpgp.readPrivateKey({ armoredKey: ownerKey });
  const userIDs = [{ name: 'waitlist owner' }, { name: 'waitlist owner', email: 'owner@example.com' }];
  const again = await openpgp.reformatKey({ privateKey, userIDs, format: 'object' });
  const { rows } = await owner.query<{ id: string }>(
    'insert into private.key_holders (public_key) values ($1) returning id',
    [Buffer.from(again.publicKey.write())],
  );
  await owner.query(
    `insert into private.wrapped_hour_keys (hour_key_id, holder_id, wrapped)
     select hour_key_id, $1, wrapped from private.wrapped_hour_keys`,
    [rows[0].id],
  );
  await owner.query(
    `delete from private.wrapped_hour_keys
     where holder_id <> $1 and hour_key_id = (select min(id) from private.hour_keys)`,
    [rows[0].id],
  );
}

describe('a database of the old chain, moved onto the baseline', () => {
  const clusters: Cluster[] = [];
  let fresh: ConnectionInfo;
  let moved: ConnectionInfo;
  let owner: Client;
  let api: Client;
  let ownerKey = '';
  const before = ['Before.Sealing@Example.com', 'zoe\u0301@example.com'];
  const after = ['after.sealing@example.com', '用户@例子.广告'];

  beforeAll(async () => {
    clusters.push(...(await Promise.all([startCluster(), startCluster()])));
    fresh = await createSupabaseDatabase(clusters[0]);
    await migrate(fresh);
    moved = await createSupabaseDatabase(clusters[1]);
    await migrate(moved, { files: CHAIN_2026_11_26 });
    owner = await connect(moved, 'postgres');
    api = await connect(moved, 'authenticator');
    for (const address of before) await insertEmail(api, address);
    ownerKey = await sealList(owner); // the old chain's hour keys: seal_pending seals what came before
    for (const address of after) await insertEmail(api, address);
    await moveToBaseline(owner);
    const later = migrationFiles().filter((path) => !BASELINE.some((version) => basename(path).startsWith(version)));
    const byKey = later.findIndex((path) => basename(path).startsWith('20261206110000'));
    await migrate(moved, { files: later.slice(0, byKey), seed: false });
    await holdTwice(owner, ownerKey);
    await migrate(moved, { files: later.slice(byKey), seed: false });
  }, 120_000);

  afterAll(async () => {
    await api?.end();
    await owner?.end();
    await Promise.all(clusters.map((cluster) => cluster.stop()));
  });

  it('has the schema of a fresh database, every comment included (pg_dump --schema-only, in full)', async () => {
    const dump = await dumpSchema(moved);
    expect(dump).toContain('COMMENT ON TABLE private.signup_addresses');
    expect(dump).not.toMatch(/ratchet|seal_key\b|waiting_list_keys|owner_secret|\bstep\b/);
    expect(dump).toBe(await dumpSchema(fresh));
  });

  it('has the same counter sequences, pg_cron jobs and role settings, the ratchet job gone', async () => {
    const freshOwner = await connect(fresh, 'postgres');
    const expected = await beyondTheDump(freshOwner).finally(() => freshOwner.end());
    expect(expected.jobs.map((job) => job.jobname)).toEqual([
      'waitlist-purge-job-history',
      'waitlist-seal-hour-keys',
      'waitlist-seal-pending',
      'waitlist-signup-guard-upkeep',
    ]);
    expect(await beyondTheDump(owner)).toEqual(expected);
  });

  it('holds each key once: the rows of a key held twice merged into the first, with every hour key', async () => {
    const { rows } = await owner.query<{ id: string; copies: number; keys: number }>(
      `select h.id, (select count(*)::int from private.wrapped_hour_keys w where w.holder_id = h.id) as copies,
              (select count(*)::int from private.hour_keys) as keys from private.key_holders h`,
    );
    expect(rows).toEqual([{ id: '1', copies: rows[0].keys, keys: rows[0].keys }]);
  });

  it('keeps every signup, sealed and opened as before; new ones are sealed and checked for duplicates', async () => {
    await insertEmail(api, 'after.the.move@example.com');
    const opened = [...(await storedAddresses(owner, ownerKey)).values()];
    expect(opened).toEqual(['taken@example.com', ...before, ...after, 'after.the.move@example.com']);
    const { rows } = await owner.query('select count(*)::int as n from public.waiting_list where email is not null');
    expect(rows[0].n).toBe(0);
    expect(await refusal(insertEmail(api, 'BEFORE.sealing@example.com'))).toMatchObject({
      code: '23505',
      message: 'duplicate key value violates unique constraint "waiting_list_email_key"',
    });
  });
});
