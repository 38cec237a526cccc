import { describe, expect, it } from 'vitest';
import { constraintNames } from '../../mocks/postgrest';
import { apiRequest, insertEmail, refusal, type ApiRole } from './api-request';
import { useDatabase } from './use-database';

const db = useDatabase();
const DENIED = { code: '42501', message: 'permission denied for table waiting_list' };

describe.each<ApiRole>(['anon', 'authenticated'])('with the public key, as %s', (role) => {
  const email = (name: string) => `${role}-${name}@example.com`;
  const asRole = (sql: string, params: unknown[] = []) => apiRequest(db.api, sql, params, { role, keep: false });

  it('adds a new email', async () => {
    const result = await insertEmail(db.api, email('new'), { role });
    expect(result.rows).toEqual([{ inserted: '1' }]);
    const saved = await db.owner.query(
      `select 1 from public.waiting_list where email = $1 and created_at > now() - interval '1 minute'`,
      [email('new')],
    );
    expect(saved.rowCount).toBe(1);
  });

  it('refuses the same email in other letter case with 23505, revealing no row', async () => {
    await insertEmail(db.api, email('twice'), { role });
    const error = await refusal(insertEmail(db.api, email('twice').toUpperCase(), { role }));
    expect(error).toMatchObject({
      code: '23505',
      message: `duplicate key value violates unique constraint "${constraintNames.unique}"`,
      detail: undefined,
      hint: undefined,
    });
  });

  it.each([
    ['read the list', 'select email from public.waiting_list'],
    ['count the list', 'select count(*) from public.waiting_list'],
    ['update a row', `update public.waiting_list set email = 'x@example.com'`],
    ['delete rows', 'delete from public.waiting_list'],
    ['truncate the table', 'truncate public.waiting_list'],
    ['read back what it inserted', `insert into public.waiting_list (email) values ('${role}-returning@example.com') returning id, created_at`],
    ['overwrite with an upsert', `insert into public.waiting_list (email) values ('taken@example.com')
       on conflict (id) do update set email = excluded.email`],
    ['set created_at', `insert into public.waiting_list (email, created_at) values ('${role}-old@example.com', '2000-01-01')`],
    ['set id, overriding the identity', `insert into public.waiting_list (id, email) overriding system value values (1, '${role}-id@example.com')`],
  ])('cannot %s (42501)', async (_, sql) => {
    expect(await refusal(asRole(sql))).toMatchObject(DENIED);
  });

  it('cannot set id at all: the identity is GENERATED ALWAYS', async () => {
    const error = await refusal(asRole(`insert into public.waiting_list (id, email) values (1, '${role}-id@example.com')`));
    expect(error).toMatchObject({ code: '428C9', message: 'cannot insert a non-DEFAULT value into column "id"' });
  });

  it('cannot read the abuse guard or its addresses', async () => {
    const error = await refusal(asRole('select * from private.signup_attempts'));
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for schema private' });
  });
});

describe('with the service key, as service_role', () => {
  const asService = (sql: string) => apiRequest(db.api, sql, [], { role: 'service_role', keep: false });

  it('can read and count the list for export', async () => {
    const listed = await asService(`select email from public.waiting_list where email = 'taken@example.com'`);
    expect(listed.rows).toEqual([{ email: 'taken@example.com' }]);
    const counted = await asService('select count(*)::int as n from public.waiting_list');
    expect(counted.rows[0].n).toBeGreaterThan(0);
  });

  it('cannot change the list', async () => {
    expect(await refusal(asService(`delete from public.waiting_list`))).toMatchObject(DENIED);
  });
});
