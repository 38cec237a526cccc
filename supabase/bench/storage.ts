/**
 * npm run bench:storage — what a signup costs on disk, and how many days a flood held to the
 * shipped `all` limit (private.signup_limits: 100,000 signups a day) takes to fill the Supabase
 * free plan's 500 MB database. Its own throwaway PostgreSQL; one database per case, migrated
 * (no seed), measured empty, then BENCH_ROWS (100,000) signups inserted as the owner through the
 * list's own triggers (the address hash, the duplicate check, the seal), VACUUM ANALYZE, and the
 * tables holding per-signup data measured whole (heap, TOAST, free space and visibility maps,
 * indexes). Cases: sealed (an owner key installed, as after `keys init`) or stored as typed, and
 * an address of 26 characters or of 254, the longest the list takes (the limit counts rows, not
 * bytes). Not counted: a signup through the API also writes its network's counters, deleted about
 * a minute after their window; each hour adds a wrapped hour key (printed: about 0.5 kB).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startCluster } from '../harness/cluster';
import { connect, createEmptyDatabase, createSupabaseDatabase } from '../harness/database';
import { migrate } from '../harness/migrations';
import { sealList } from '../harness/sealed';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const FREE_PLAN = 500 * 2 ** 20; // Supabase counts a database's MB as pg_database_size / (1024 * 1024)
const SUPABASE_OWN = 60 * 2 ** 20; // "new Supabase projects have a database size of ~40-60mb" (their docs)
const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/** SQL for signup g's address, exactly `length` characters: xxx…-0000001@example.com. */
const address = (length: number) => `repeat('x', ${length - 20}) || '-' || lpad(g::text, 7, '0') || '@example.com'`;

const cases = [
  { name: 'sealed_26', sealed: true, length: 26 },
  { name: 'typed_26', sealed: false, length: 26 },
  { name: 'sealed_254', sealed: true, length: 254 },
  { name: 'typed_254', sealed: false, length: 254 },
];

const cluster = await startCluster();
try {
  const shared = { ...(await createSupabaseDatabase(cluster)), cron: false };
  const bare = await connect(await createEmptyDatabase(shared, 'bare'), 'postgres');
  const { rows: bareSize } = await bare.query(
    `select pg_database_size(current_database())::float8 as bytes, current_setting('server_version') as version`,
  );
  await bare.end();
  const table: Record<string, string | number>[] = [];
  let migratedBytes = 0;
  let duplicateSequences = '';
  let perDay = 0; // `all`'s per_day, as shipped (private.signup_limits)
  for (const { name, sealed, length } of cases) {
    const info = await createEmptyDatabase(shared, name);
    await migrate(info, { seed: false });
    const owner = await connect(info, 'postgres');
    const size = async () =>
      Number((await owner.query('select pg_database_size(current_database())::float8 as b')).rows[0].b);
    const empty = await size();
    migratedBytes = empty;
    const { rows: sequences } = await owner.query(
      `select count(*)::int as n, sum(pg_relation_size(c.oid))::float8 as bytes from pg_class c
       where c.relkind = 'S' and c.relnamespace = 'private'::regnamespace and c.relname like 'signup_duplicates%'`,
    );
    duplicateSequences = `${sequences[0].n} duplicate sequences, ${MB(sequences[0].bytes)} MB`;
    const { rows: all } = await owner.query(`select per_day from private.signup_limits where scope = 'all'`);
    perDay = all[0].per_day;
    if (sealed) await sealList(owner);
    const load = loadavg()[0].toFixed(2);
    const started = performance.now();
    await owner.query(
      `insert into public.waiting_list (email) select ${address(length)} from generate_series(1, $1::int) g`,
      [ROWS],
    );
    const seconds = (performance.now() - started) / 1000;
    await owner.query('vacuum analyze public.waiting_list, private.signup_addresses, private.wrapped_hour_keys');
    const { rows } = await owner.query(
      `select sum(pg_total_relation_size(r))::float8 as total, sum(pg_indexes_size(r))::float8 as indexes,
              (select count(*) from public.waiting_list where email is null)::int as sealed_rows,
              (select count(*) from private.signup_addresses)::int as hashed_rows,
              (select max(char_length(email)) from public.waiting_list)::int as typed_length,
              (select avg(octet_length(seal)) from private.signup_addresses)::float8 as seal,
              (select avg(octet_length(wrapped)) from private.wrapped_hour_keys)::float8 as wrapped
       from unnest(array['public.waiting_list', 'private.signup_addresses']::regclass[]) r`,
    );
    const grown = (await size()) - empty;
    await owner.end();
    const typed = sealed ? 0 : length;
    if (
      rows[0].hashed_rows !== ROWS ||
      rows[0].sealed_rows !== (sealed ? ROWS : 0) ||
      (rows[0].typed_length ?? 0) !== typed
    ) {
      throw new Error(`${name}: the rows are not as the case says.`);
    }
    const perRow = rows[0].total / ROWS;
    table.push({
      case: `${sealed ? 'sealed' : 'as typed'}, ${length} characters`,
      'bytes / signup': Math.round(perRow),
      'of which indexes': Math.round(rows[0].indexes / ROWS),
      'seal bytes': rows[0].seal ?? '-',
      'wrapped hour key bytes': rows[0].wrapped ? Math.round(rows[0].wrapped) : '-',
      'database grew / signup': Math.round(grown / ROWS),
      'days to fill 500 MB': ((FREE_PLAN - SUPABASE_OWN - (empty - bareSize[0].bytes)) / (perRow * perDay)).toFixed(1),
      'insert s': seconds.toFixed(1),
      'load average': load,
    });
  }
  console.log(
    `${ROWS} signups a case, inserted as the owner in one statement; public.waiting_list and ` +
      `private.signup_addresses with their TOAST and indexes, after VACUUM ANALYZE; PostgreSQL ${bareSize[0].version}.`,
  );
  console.log(
    `A database without migrations: ${MB(bareSize[0].bytes)} MB; migrated, empty: ${MB(migratedBytes)} MB ` +
      `(the migrations add ${MB(migratedBytes - bareSize[0].bytes)} MB, of which ${duplicateSequences}). ` +
      `Days to fill: 500 MB less Supabase's own ~60 MB (its docs, not measured here) less what the migrations add, ` +
      `at the limit all's ${perDay} signups a day.`,
  );
  console.table(table);
} finally {
  await cluster.stop();
}
