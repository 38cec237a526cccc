import { describe, expect, it } from 'vitest';
import { constraintNames } from '../../mocks/postgrest';
import type { Database } from '../../src/lib/database.types';
import { useDatabase } from './use-database';

/** Every column of the client's Database type (compile time) must be exactly the table's (run time). */
const typedColumns: Record<keyof Database['public']['Tables']['waiting_list']['Row'], true> = {
  id: true,
  email: true,
  created_at: true,
};

const db = useDatabase();
const rows = async (sql: string, params: unknown[] = []) => (await db.owner.query(sql, params)).rows;

describe('public.waiting_list as the migrations leave it', () => {
  it('has an identity key, the email (NULL once sealed) and the signup time', async () => {
    expect(
      await rows(`select column_name, data_type, is_nullable, column_default, identity_generation
                  from information_schema.columns
                  where table_schema = 'public' and table_name = 'waiting_list' order by ordinal_position`),
    ).toEqual([
      {
        column_name: 'id',
        data_type: 'bigint',
        is_nullable: 'NO',
        column_default: null,
        identity_generation: 'ALWAYS',
      },
      // NOT NULL is the trigger's (23502 as before): a sealed row's address is NULL.
      { column_name: 'email', data_type: 'text', is_nullable: 'YES', column_default: null, identity_generation: null },
      {
        column_name: 'created_at',
        data_type: 'timestamp with time zone',
        is_nullable: 'NO',
        column_default: 'now()',
        identity_generation: null,
      },
    ]);
  });

  it('matches the Database type the client is built with', async () => {
    const columns = await rows(
      `select column_name from information_schema.columns
       where table_schema = 'public' and table_name = 'waiting_list'`,
    );
    expect(columns.map((row) => row.column_name).sort()).toEqual(Object.keys(typedColumns).sort());
  });

  it('names its checks and unique constraint as the mock does', async () => {
    const checks = await rows(
      `select conname from pg_constraint
       where conrelid = 'public.waiting_list'::regclass and contype = 'c' order by conname`,
    );
    expect(checks.map((row) => row.conname)).toEqual([constraintNames.format, constraintNames.length]);
    // The duplicate check: the address hash of every row, written by the sealing trigger and
    // checked at the end of the statement (check_new_signup_addresses).
    const [unique] = await rows(
      `select conrelid::regclass::text as rel, pg_get_constraintdef(oid) as def from pg_constraint where conname = $1`,
      [constraintNames.unique],
    );
    expect(unique).toEqual({
      rel: 'private.signup_addresses',
      def: 'UNIQUE (address_hash) DEFERRABLE INITIALLY DEFERRED',
    });
    const triggers = await rows(
      `select tgname from pg_trigger
       where tgrelid = 'public.waiting_list'::regclass and not tgisinternal order by tgname`,
    );
    expect(triggers.map((row) => row.tgname)).toEqual([
      'check_changed_signup_addresses',
      'check_new_signup_addresses',
      'limit_rows_per_request',
      'limit_signups',
      'seal_changed_signups',
      'seal_new_signups',
    ]);
    // No unique index on the table itself: it would refuse a listed address at its own row,
    // before a later row of the same statement had its checks.
    const indexes = await rows(
      `select indexname from pg_indexes where schemaname = 'public' and tablename = 'waiting_list'`,
    );
    // (The partial index finds the rows still in plaintext: before keys init, or restored with triggers off.)
    expect(indexes.map((row) => row.indexname).sort()).toEqual(['waiting_list_pkey', 'waiting_list_plaintext_idx']);
  });

  it('documents the table and every column', async () => {
    const comments = await rows(
      `select a.attname, col_description(a.attrelid, a.attnum) as comment
       from pg_attribute a where a.attrelid = 'public.waiting_list'::regclass and a.attnum > 0`,
    );
    expect(comments.map((row) => row.attname).sort()).toEqual(['created_at', 'email', 'id']);
    for (const { comment } of comments) expect(comment).toMatch(/\w{3}/);
    const [table] = await rows(`select obj_description('public.waiting_list'::regclass, 'pg_class') as comment`);
    expect(table.comment).toMatch(/\w{3}/);
  });

  it('has row-level security on, with one insert policy that is not always true', async () => {
    const [table] = await rows(`select relrowsecurity from pg_class where oid = 'public.waiting_list'::regclass`);
    expect(table.relrowsecurity).toBe(true);
    expect(await rows(`select cmd, roles, qual, with_check from pg_policies where tablename = 'waiting_list'`)).toEqual(
      [{ cmd: 'INSERT', roles: '{anon,authenticated}', qual: null, with_check: '(created_at = now())' }],
    );
  });

  it('grants the public roles INSERT on email and nothing else; service_role nothing', async () => {
    const granted = await rows(
      `select r.role, p.privilege, has_table_privilege(r.role, 'public.waiting_list', p.privilege) as whole_table,
              array(select c from unnest(array['id', 'email', 'created_at']) c
                    where p.privilege in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')
                      and has_column_privilege(r.role, 'public.waiting_list', c, p.privilege)) as columns
       from unnest(array['anon', 'authenticated', 'service_role']) r(role),
            unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p(privilege)`,
    );
    expect(granted.filter((row) => row.whole_table || row.columns.length > 0)).toEqual([
      { role: 'anon', privilege: 'INSERT', whole_table: false, columns: ['email'] },
      { role: 'authenticated', privilege: 'INSERT', whole_table: false, columns: ['email'] },
    ]);
    const [sequence] = await rows(
      `select bool_or(has_sequence_privilege(r, 'public.waiting_list_id_seq', 'usage, select, update')) as any
       from unnest(array['anon', 'authenticated']) r`,
    );
    expect(sequence.any).toBe(false);
  });
});
