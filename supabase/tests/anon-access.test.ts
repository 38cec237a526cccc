import { beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, insertEmail, refusal, type ApiRole } from '../harness/api-request';
import { storedAs } from '../harness/sealed';
import { useDatabase } from './use-database';
import { sharedOwnerKey } from './shared-server';

const db = useDatabase();

describe.each<ApiRole>(['anon', 'authenticated'])('with the public key, as %s', (role) => {
  const email = (name: string) => `${role}-${name}@example.com`;

  it('adds a new email, sealed: the table holds no address', async () => {
    const result = await insertEmail(db.api, email('new'), { role });
    expect(result.rows).toEqual([{ inserted: '1' }]);
    const saved = await db.owner.query(
      `select w.email from public.waiting_list w join private.signup_addresses a on a.id = w.id
       where a.address_hash = private.address_hash($1) and w.created_at > now() - interval '1 minute'`,
      [email('new')],
    );
    expect(saved.rows).toEqual([{ email: null }]);
    expect(await storedAs(db.owner, email('new'), sharedOwnerKey())).toEqual([email('new')]);
  });

  // Any other column or command: 42501 (schema.test.ts, its grants; contract.test.ts, a read).
  it('cannot set id at all: the identity is GENERATED ALWAYS', async () => {
    const error = await refusal(
      apiRequest(db.api, `insert into public.waiting_list (id, email) values (1, '${role}-id@example.com')`, [], {
        role,
        keep: false,
      }),
    );
    expect(error).toMatchObject({ code: '428C9', message: 'cannot insert a non-DEFAULT value into column "id"' });
  });
});

/**
 * Schema private: the abuse guard, the address hashes and seals, the owner's lists. Every object in it is listed
 * from the catalog at run time, so an object a later migration adds is covered without editing
 * this file. No API role may reach any of them: not the public key's roles, and not service_role
 * either (the owner's side runs as postgres; supabase/security.md, "What the public key can and
 * cannot do").
 */
describe('schema private, every object in it', () => {
  const API_ROLES: ApiRole[] = ['anon', 'authenticated', 'service_role'];
  type CatalogObject = { kind: string; name: string; oid: number };
  let objects: CatalogObject[] = [];

  beforeAll(async () => {
    const { rows } = await db.owner.query<CatalogObject>(
      `select case c.relkind when 'r' then 'table' when 'p' then 'table' when 'v' then 'view'
                             when 'm' then 'materialized view' when 'f' then 'foreign table'
                             when 'S' then 'sequence' end as kind,
              c.relname as name, c.oid::int as oid
       from pg_class c
       where c.relnamespace = 'private'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
       union all
       select 'function', p.oid::regprocedure::text, p.oid::int
       from pg_proc p where p.pronamespace = 'private'::regnamespace
       order by 1, 2`,
    );
    objects = rows;
  });

  const relations = () => objects.filter((o) => o.kind !== 'function' && o.kind !== 'sequence');

  it('are found by the catalog query (the current tables, views and functions among them)', () => {
    const names = objects.map((o) => `${o.kind} ${o.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'table signup_limits',
        'table signup_counts',
        'table signup_secrets',
        'table signup_addresses',
        'table address_hash_secret',
        // The owner's side (cli/): the do-not-email list, the send journal.
        'table do_not_email',
        'table notify_journal',
        'view mailable_signups',
        // Sealed at rest: the holders' public keys, the hour keys and their wrapped copies, an hour key in clear.
        'table key_holders',
        'table hour_keys',
        'table wrapped_hour_keys',
        'table hour_key_0',
        'function private.address_hash(text)',
        'function private.seal_status()',
        'function private.limit_signups()',
        'function private.forget_expired_signups()',
      ]),
    );
    // The old chain's sealing tables are gone: nothing below may pass because an object is missing.
    expect(names).not.toContain('table seal_key');
    expect(names).not.toContain('table seal_chain');
    // Nor the old export's view and CSV escape: the owner's export command is the one export path.
    expect(names.filter((name) => /waiting_list_export|csv_cell/.test(name))).toEqual([]);
  });

  it.each(API_ROLES)('%s has no privilege on the schema itself', async (role) => {
    const { rows } = await db.owner.query(
      `select has_schema_privilege($1, 'private', 'USAGE') as usage,
              has_schema_privilege($1, 'private', 'CREATE') as create`,
      [role],
    );
    expect(rows).toEqual([{ usage: false, create: false }]);
  });

  it.each(API_ROLES)(
    '%s may not SELECT, INSERT, UPDATE or DELETE any table or view, nor any of their columns',
    async (role) => {
      const { rows } = await db.owner.query(
        `select c.relname, p.privilege
       from pg_class c
       cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'])
         as p(privilege)
       where c.relnamespace = 'private'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
         and (has_table_privilege($1, c.oid, p.privilege)
              -- A column grant (like INSERT (email) on the list) leaves the table privilege false.
              or (p.privilege in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')
                  and has_any_column_privilege($1, c.oid, p.privilege)))
       order by 1, 2`,
        [role],
      );
      expect(rows).toEqual([]);
      expect(relations().length).toBeGreaterThanOrEqual(5);
    },
  );

  it.each(API_ROLES)('%s may not use any sequence', async (role) => {
    const { rows } = await db.owner.query(
      `select c.relname from pg_class c
       where c.relnamespace = 'private'::regnamespace and c.relkind = 'S'
         and (has_sequence_privilege($1, c.oid, 'USAGE') or has_sequence_privilege($1, c.oid, 'SELECT')
              or has_sequence_privilege($1, c.oid, 'UPDATE'))`,
      [role],
    );
    expect(rows).toEqual([]);
  });

  it.each(API_ROLES)(
    '%s may EXECUTE no function but the address rule its inserts check (none is left to PUBLIC)',
    async (role) => {
      const { rows } = await db.owner.query(
        `select p.oid::regprocedure::text as function from pg_proc p
       where p.pronamespace = 'private'::regnamespace and has_function_privilege($1, p.oid, 'EXECUTE')
       order by 1`,
        [role],
      );
      // waiting_list_email_format calls it as the inserting role; without USAGE on the schema no
      // role of the API can name it (below).
      const checked = role === 'service_role' ? [] : [{ function: 'private.email_format_ok(text)' }];
      expect(rows).toEqual(checked);
      expect(objects.filter((o) => o.kind === 'function').length).toBeGreaterThanOrEqual(10);
    },
  );

  describe.each(API_ROLES)('in a request as %s', (role) => {
    const asRole = (sql: string) => apiRequest(db.api, sql, [], { role, keep: false });
    const SCHEMA_DENIED = { code: '42501', message: 'permission denied for schema private' };

    it("cannot read the abuse guard's counters (42501)", async () => {
      expect(await refusal(asRole('select * from private.signup_counts'))).toMatchObject(SCHEMA_DENIED);
    });

    it('cannot read any table or view of the schema, nor call its functions (42501)', async () => {
      for (const { name } of relations()) {
        expect(await refusal(asRole(`select * from private.${name} limit 1`)), name).toMatchObject(SCHEMA_DENIED);
      }
      expect(await refusal(asRole(`select private.address_hash('a@b.co')`))).toMatchObject(SCHEMA_DENIED);
      expect(await refusal(asRole(`select private.email_format_ok('a@b.co')`))).toMatchObject(SCHEMA_DENIED);
      expect(await refusal(asRole('select private.forget_expired_signups()'))).toMatchObject(SCHEMA_DENIED);
    });
  });
});
