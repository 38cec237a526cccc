/**
 * `waitlist health` proves the public key reads nothing: a read of the list through the data API
 * must be refused (401 42501), and with DATABASE_URL every grant, policy and exposed object beyond
 * the one insert is a problem naming the object and its fix. Each fault is added by hand, as in
 * the dashboard's SQL editor, and taken away after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findingsOf, health, useHealthyProject } from './health-stand-ins';

const stand = useHealthyProject();

const undo: string[] = [];
afterEach(async () => {
  while (undo.length) await stand.owner.query(undo.pop()!);
});
async function byHand(sql: string, undoSql: string) {
  undo.push(undoSql);
  await stand.owner.query(sql);
}

const problems = async () => {
  const run = await health(stand, ['--json']);
  expect(run.code, run.stdout).toBe(1);
  return findingsOf(run).filter((f) => f.outcome === 'problem');
};

describe('waitlist health: the public key reads nothing', () => {
  it('a select policy for anon: names the policy and the statement that drops it (exit 1)', async () => {
    await byHand(
      `create policy "Anyone can read" on public.waiting_list for select to anon using (true)`,
      `drop policy "Anyone can read" on public.waiting_list`,
    );
    const found = await problems();
    expect(found).toEqual([
      expect.objectContaining({
        check: 'exposure',
        says: expect.stringContaining('Policy Anyone can read on public.waiting_list: for select to anon using true.'),
        fix: 'drop policy "Anyone can read" on public.waiting_list;',
      }),
    ]);
  });

  it('a grant of select to anon: the data API answers 200 [] to the public key, the grant named (exit 1)', async () => {
    await byHand(
      'grant select on table public.waiting_list to anon',
      'revoke select on table public.waiting_list from anon',
    );
    const found = await problems();
    expect(found.map((f) => f.check)).toEqual(['public read', 'exposure']);
    expect(found[0].says).toContain('A select on the list with the public key answered 200, [] (no row yet visible');
    expect(found[1].says).toBe(
      'public.waiting_list (table): anon may SELECT, so the public key reads it through the data API. ' +
        'The public key may add an address to public.waiting_list and nothing else.',
    );
    expect(found[1].fix).toContain('revoke all on table public.waiting_list from public, anon, authenticated;');
  });

  it('a view in public that anon may read: named by the exposure check (exit 1)', async () => {
    await byHand(
      `create view public.signups_per_day as
         select created_at::date as day, count(*) from public.waiting_list group by 1;
       grant select on public.signups_per_day to anon`,
      'drop view public.signups_per_day',
    );
    const found = await problems();
    expect(found).toEqual([
      expect.objectContaining({
        check: 'exposure',
        says: expect.stringMatching(/^public\.signups_per_day \(view\): anon may SELECT, so the public key reads it/),
        fix:
          'revoke SELECT on public.signups_per_day from public, anon, authenticated; ' +
          '(or drop the view if nothing needs it)',
      }),
    ]);
  });

  it('a function in public that anon may call: named, with the revoke (exit 1)', async () => {
    await byHand(
      `create function public.list_size() returns bigint language sql stable set search_path = ''
       as 'select count(*) from public.waiting_list'`,
      'drop function public.list_size()',
    );
    const found = await problems();
    expect(found).toEqual([
      expect.objectContaining({
        check: 'exposure',
        says: expect.stringMatching(/^public\.list_size\(\) \(function\): anon and authenticated may call it, /),
        fix: 'revoke execute on function public.list_size() from public, anon, authenticated; (or drop the function)',
      }),
    ]);
    expect(found[0].says).toContain('may call it, through the data API (/rest/v1/rpc/list_size).');
    await byHand('create extension fuzzystrmatch schema public', 'drop extension fuzzystrmatch'); // an extension's too
    expect((await problems()).map((f) => f.says.split(' (')[0])).toContain('public.soundex(text)');
  });

  // Nothing exposed, as the owner sees it: health.test.ts, a healthy project.
  it('as a login role without a single grant: nothing exposed (exit 0), and still finds a leak', async () => {
    await byHand('create role waitlist_health_test login', 'drop role waitlist_health_test');
    const asRole = { DATABASE_URL: stand.env.DATABASE_URL.replace('//postgres@', '//waitlist_health_test@') };
    const run = await health(stand, ['--json'], asRole);
    expect(run.code, run.stdout).toBe(0);
    const findings = findingsOf(run);
    expect(findings.filter((f) => f.outcome === 'ok').map((f) => f.check)).toEqual(
      expect.arrayContaining(['migrations', 'exposure', 'public read', 'data API']),
    );
    expect(findings.find((f) => f.check === 'origins')).toMatchObject({
      outcome: 'skipped',
      says: expect.stringContaining('"A role for the daily check"'),
    });

    // The same role still finds a leak.
    await byHand(
      'grant select on table public.waiting_list to anon',
      'revoke select on table public.waiting_list from anon',
    );
    const leak = await health(stand, ['--json'], asRole);
    expect(leak.code).toBe(1);
    expect(
      findingsOf(leak)
        .filter((f) => f.outcome === 'problem')
        .map((f) => f.check),
    ).toEqual(['public read', 'exposure']);
  });
});
