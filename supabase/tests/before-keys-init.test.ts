/**
 * The addresses stored before `keys init`, on a project deployed before the list was sealed (the
 * chain of 2026-11-26 up to its sealing migration, then the rest of it, then `waitlist baseline`'s
 * move), its statistics gathered as autovacuum gathers them, pg_stat_statements loaded as on
 * Supabase: after `keys init` no relation file of the data directory holds any of them, in any form
 * (supabase/security.md, "Sealed at rest"); pg_wal/ holds them until its files are recycled and
 * written over, as measured here. Without the database's ownership, `keys init` cannot rewrite
 * pg_statistic, says so, and what it prints, pasted step by step, does it.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGET_BY_HAND, forgetAddressSamples } from '../../cli/seal/statistics';
import { keysInit, type Init } from '../../cli/tests/keys-init';
import { insertEmail } from '../harness/api-request';
import { startCluster, SUPERUSER, type Cluster } from '../harness/cluster';
import {
  connect,
  createEmptyDatabase,
  createSupabaseDatabase,
  ownerUrl,
  type ConnectionInfo,
} from '../harness/database';
import { moveToBaseline } from '../../cli/commands/baseline';
import { BASELINE } from '../../cli/database/migrations';
import { migrate, migrationFiles } from '../harness/migrations';
import { CHAIN_2026_11_26 } from './chain';
import { addressesIn, filesUnder } from './copies';
import { withClient } from './use-database';

/** The chain's migration that sealed the list: before it, each address was stored as typed and lower-cased. */
const SEALED = CHAIN_2026_11_26.findIndex((path) => path.endsWith('_sealed_list.sql'));

/**
 * Each address once (the list refuses a second signup of one), so ANALYZE keeps a histogram of
 * them, not most-common values: 40 distinct values are fewer than the default target's 100
 * buckets, so every one is a bound, and together under 2 kB, so pg_statistic stores them
 * uncompressed, as bytes a scan finds (shown before keys init).
 */
const listOf = (tag: string) => [
  ...Array.from({ length: 36 }, (_, i) => `${tag}${i + 1}@example.com`),
  `${tag}.Init.Ada@Example.COM`,
  `jo\u0308rg.${tag}@bu\u0308cher.de`,
  `ÅSA.${tag}@EXAMPLE.COM`,
  `用户.${tag}@例子.广告`,
];
const PRE_INIT = listOf('pre');

/** Every column that holds an address or a key; ANALYZE must keep no sample of any. */
const SECRET_COLUMNS = [
  'public.waiting_list.email',
  'private.hour_key_0.clear_key',
  'private.hour_key_1.clear_key',
  'private.hour_key_2.clear_key',
  'private.address_hash_secret.secret',
  'private.signup_secrets.secret',
];

/** A project deployed before the list was sealed: `addresses` signed up, then ANALYZE, as autovacuum runs it. */
async function deployedBeforeSealing(info: ConnectionInfo, addresses: string[]) {
  await migrate(info, { files: CHAIN_2026_11_26.slice(0, SEALED), seed: false });
  await withClient(info, 'authenticator', async (api) => {
    for (const address of addresses) await insertEmail(api, address);
  });
  await withClient(info, 'postgres', (owner) => owner.query('analyze'));
}

/**
 * `supabase db push` of the later migrations, the move, `db push` of the files after the baseline,
 * ANALYZE again, then `keys init` as the owner runs it.
 */
async function pushedAndSealed(info: ConnectionInfo) {
  await migrate(info, { files: CHAIN_2026_11_26.slice(SEALED), seed: false });
  const owner = await connect(info, 'postgres');
  await moveToBaseline(owner);
  await owner.end();
  await migrate(info, { files: migrationFiles().slice(BASELINE.length), seed: false });
  await withClient(info, 'postgres', (owner) => owner.query('analyze'));
  return keysInit({ DATABASE_URL: ownerUrl(info) });
}

describe('the addresses stored before keys init', () => {
  let cluster: Cluster;
  let info: ConnectionInfo;
  let superuser: Client;
  let init: Init;
  let inStatisticsBefore: string[] = [];

  const checkpoint = () => superuser.query('checkpoint');
  const walFiles = () => filesUnder(`${cluster.dataDir}/pg_wal`, (path) => path.includes('/'));

  /** Each file of the data directory but pg_wal/ that holds one of `addresses`, named by its relation in `db`. */
  async function relationFilesHolding(db: Client, addresses: string[]) {
    const { rows } = await db.query<{ path: string; name: string }>(
      `select pg_relation_filepath(oid) as path, oid::regclass::text as name from pg_class
       where pg_relation_filepath(oid) is not null`,
    );
    const relations = new Map(rows.map((row) => [row.path, row.name]));
    const files = filesUnder(cluster.dataDir, (path) => path.startsWith('pg_wal'));
    return addressesIn(files, addresses).map(({ path, addresses: held }) => {
      const relation = relations.get(path.replace(/(_[a-z]+)?(\.\d+)?$/, '')) ?? 'not a relation';
      return `${path} (${relation}): ${held.join(', ')}`;
    });
  }

  beforeAll(async () => {
    cluster = await startCluster({
      // Full-page writes on, as on a real server: the WAL measured here is the WAL a project writes.
      durable: true,
      settings: ['shared_preload_libraries=pg_cron,pg_stat_statements'],
    });
    info = await createSupabaseDatabase(cluster);
    superuser = await connect(info, SUPERUSER);
    // Where Supabase has it; the schema is the owner's, as the migrations expect.
    await superuser.query(`create schema extensions authorization postgres;
      create extension pg_stat_statements with schema extensions`);
    await deployedBeforeSealing(info, PRE_INIT);
    // The owner looks an address up by hand: pg_stat_statements stores the statement's text.
    await withClient(info, 'postgres', async (owner) => {
      await owner.query(`select count(*) from public.waiting_list where email = '${PRE_INIT[0]}'`);
      await owner.query(`do $$ begin perform 'typed.in.do@example.com'; end $$`);
    });
    await checkpoint();
    const { rows } = await superuser.query(`select pg_relation_filepath('pg_catalog.pg_statistic') as path`);
    inStatisticsBefore = addressesIn(
      filesUnder(cluster.dataDir, (path) => path !== rows[0].path),
      PRE_INIT,
    ).flatMap((file) => file.addresses);
    init = await pushedAndSealed(info);
    await checkpoint();
  }, 300_000);

  afterAll(async () => {
    await superuser?.end();
    await cluster?.stop();
  });

  it('were in pg_statistic’s file, every one, before keys init (so the scan below can see them)', () => {
    expect(inStatisticsBefore.sort()).toEqual([...PRE_INIT].sort());
  });

  it('keys init seals them, and names what old WAL keeps', () => {
    expect(init.result.stderr).toContain(`Sealed ${PRE_INIT.length} stored addresses`);
    expect(init.result.stderr).toContain('The WAL written before now still holds what the list held');
    expect(init.result.stderr).not.toContain('pg_statistic');
    expect(init.result.code).toBe(0);
  });

  it('are in no relation file of the data directory afterwards, in any form (pg_wal/ apart)', async () => {
    expect(await relationFilesHolding(superuser, PRE_INIT)).toEqual([]);
  });

  it('no column of addresses or keys has a sample in pg_statistic', async () => {
    const { rows } = await superuser.query<{ column: string }>(
      `select schemaname || '.' || tablename || '.' || attname as column from pg_stats
       where most_common_vals is not null or histogram_bounds is not null`,
    );
    expect(rows.map((row) => row.column).filter((column) => SECRET_COLUMNS.includes(column))).toEqual([]);
  });

  it('pg_stat_statements keeps a statement’s text with $1 in place of an address; a DO block as typed', async () => {
    const { rows } = await superuser.query<{ query: string }>('select query from extensions.pg_stat_statements');
    const texts = rows.map((row) => row.query);
    expect(texts).toContain('select count(*) from public.waiting_list where email = $1');
    expect(texts.filter((text) => text.includes('typed.in.do@example.com'))).toHaveLength(1);
  });

  it('pg_wal/ keeps them until its files are recycled and overwritten; the owner may count, not hurry it', async () => {
    const found = () => addressesIn(walFiles(), PRE_INIT);
    const count = (files: ReturnType<typeof found>) => new Set(files.flatMap((file) => file.addresses)).size;
    const round = async () => {
      await checkpoint();
      await superuser.query('select pg_switch_wal()');
    };
    const afterInit = found();
    await round();
    await round();
    const afterTwoRounds = found();
    const { rows } = await superuser.query<{ current: string }>(
      'select pg_walfile_name(pg_current_wal_lsn()) as current',
    );
    const segments = walFiles().length;
    for (let i = 0; i < segments; i++) await round();
    const afterOverwrite = found();
    console.info(
      `pre-init addresses in pg_wal/: ${count(afterInit)} of ${PRE_INIT.length} in ${afterInit.length} files after ` +
        `keys init; ${count(afterTwoRounds)} in ${afterTwoRounds.length} after 2 × (checkpoint, pg_switch_wal()), ` +
        `each file named after the current one (${rows[0].current}); ${count(afterOverwrite)} after ${segments} more ` +
        `rounds, one per file in pg_wal/`,
    );
    expect(count(afterInit)).toBe(PRE_INIT.length);
    // Recycled: renamed ahead of the current file with their old bytes, until the server writes there.
    expect(afterTwoRounds.length).toBeGreaterThan(0);
    for (const file of afterTwoRounds) expect(file.path > rows[0].current, file.path).toBe(true);
    expect(count(afterOverwrite)).toBe(0);

    await superuser.query('grant pg_monitor to postgres'); // as Supabase grants it
    await withClient(info, 'postgres', async (owner) => {
      await expect(owner.query('checkpoint')).rejects.toThrow('must be superuser or have privileges of pg_checkpoint');
      await expect(owner.query('select pg_switch_wal()')).rejects.toThrow('permission denied for function');
      const { rows: listed } = await owner.query<{ n: number }>('select count(*)::int as n from pg_ls_waldir()');
      expect(listed[0].n).toBeGreaterThan(0);
    });
  });

  it('the address column is sampled only while it holds no address (a row restored with triggers off)', async () => {
    const address = 'restored.plain@example.com';
    await superuser.query(`set session_replication_role = replica;
      insert into public.waiting_list (email) values ('${address}'); reset session_replication_role`);
    const owner = await connect(info, 'postgres');
    try {
      expect(await forgetAddressSamples(owner)).toMatchObject({ resampled: false, rewritten: true });
      await checkpoint();
      expect(await relationFilesHolding(superuser, [address])).toEqual([
        expect.stringMatching(/^base\/\d+\/\d+ \(waiting_list\): /),
      ]);
    } finally {
      await owner.end();
      await superuser.query('delete from public.waiting_list where email = $1', [address]);
    }
  });

  describe('in a database its role does not own', () => {
    const NOT_OWNED = listOf('notowned');
    let db: ConnectionInfo;
    let notOwned: Init;
    /** The superuser, who owns this database. */
    let databaseOwner: Client;

    beforeAll(async () => {
      db = await createEmptyDatabase(info, 'not_owned');
      await withClient(db, SUPERUSER, async (admin) => {
        await admin.query(`alter database not_owned owner to ${SUPERUSER}`);
        await admin.query('grant all on database not_owned to postgres; alter schema public owner to postgres');
      });
      await deployedBeforeSealing(db, NOT_OWNED);
      notOwned = await pushedAndSealed(db);
      databaseOwner = await connect(db, SUPERUSER);
      await checkpoint();
    }, 300_000);

    afterAll(() => databaseOwner?.end());

    it('keys init says pg_statistic may still hold addresses, who may rewrite it, and the SQL', () => {
      expect(notOwned.result.code).toBe(0);
      expect(notOwned.result.stderr).toContain(
        `Rewriting them takes the database's owner (${SUPERUSER}) or a superuser`,
      );
      // Each step on a line of its own, as the owner copies it.
      for (const step of FORGET_BY_HAND) expect(notOwned.result.stderr).toContain(`\n  ${step}\n`);
    });

    it('pg_statistic’s file is the one that does; the printed SQL, run by the owner, leaves none', async () => {
      const held = await relationFilesHolding(databaseOwner, NOT_OWNED);
      expect(held).toHaveLength(1);
      expect(held[0]).toContain('(pg_statistic)');
      // As pasted into the SQL editor: each step whole, as one query string, one after the other.
      for (const step of FORGET_BY_HAND) await databaseOwner.query(step);
      await checkpoint();
      expect(await relationFilesHolding(databaseOwner, NOT_OWNED)).toEqual([]);
    });
  });
});
