/** The abuse guard's settings from the command line: limits and allowed origins, no psql. */
import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';

const db = useOwnDatabase('cli_guard');

describe('limits', () => {
  it('limits shows the table (not the origins: origins list), changes one scope, refuses an unknown one', async () => {
    await db.owner.query(
      `insert into private.allowed_origins values ('https://launch.example.com') on conflict do nothing`,
    );
    const shown = await waitlist(['limits']);
    expect(shown.stdout).toMatch(/^scope +per 10 minutes +per day +applies to\n/);
    expect(shown.stdout).toMatch(/\nipv4 +200 +1000 /);
    expect(shown.stdout).not.toContain('launch.example.com');

    const changed = JSON.parse((await waitlist(['limits', 'ipv4', '--per-day', '2000', '--json'])).stdout);
    expect(changed.limits).toContainEqual(
      expect.objectContaining({ scope: 'ipv4', per_10_minutes: 200, per_day: 2000 }),
    );
    const unknown = await waitlist(['limits', 'ipv5', '--per-day', '1']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('Unknown scope "ipv5"');
    await db.owner.query(`update private.signup_limits set per_day = 1000 where scope = 'ipv4'`);
  });
});

describe('limits that would refuse everyone', () => {
  const ipv4 = async () =>
    (await db.owner.query(`select per_10_minutes, per_day from private.signup_limits where scope = 'ipv4'`)).rows[0];

  it.each([
    [['--per-day', '0'], 'With a limit of 0, every signup of scope ipv4'],
    [['--per-10-minutes', '0'], 'With a limit of 0, every signup of scope ipv4'],
    [['--per-day', '100'], '--per-day 100 is below --per-10-minutes 200'],
  ])('limits ipv4 %j is refused off a terminal without --yes, applied with it', async (change, words) => {
    const before = await ipv4();
    const refused = await waitlist(['limits', 'ipv4', ...change]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(words);
    expect(refused.stderr).toContain('add --yes');
    expect(await ipv4()).toEqual(before);
    expect((await waitlist(['limits', 'ipv4', ...change, '--yes'])).code).toBe(0);
    expect(await ipv4()).not.toEqual(before);
    await db.owner.query(`update private.signup_limits set per_10_minutes = 200, per_day = 1000 where scope = 'ipv4'`);
  });
});

describe('origins', () => {
  it('adds, lists and removes the allowed origins as a browser sends them, without psql', async () => {
    await db.owner.query('delete from private.allowed_origins');
    const added = await waitlist(['origins', 'add', 'https://Launch.Example.com']);
    expect(added).toMatchObject({ code: 0, stdout: 'https://launch.example.com\n' });
    expect(added.stderr).toContain('From now on, a browser on any other origin is refused (403).');
    expect((await waitlist(['origins', 'add', 'http://localhost:5173'])).code).toBe(0);
    expect(JSON.parse((await waitlist(['origins', 'list', '--json'])).stdout)).toEqual([
      'http://localhost:5173',
      'https://launch.example.com',
    ]);
    const page = await waitlist(['origins', 'add', 'https://launch.example.com/signup']);
    expect(page).toMatchObject({ code: 2, stdout: '' });
    expect(page.stderr).toContain('did you mean https://launch.example.com?');
    expect((await waitlist(['origins', 'remove', 'http://localhost:5173'])).stdout).toBe(
      'https://launch.example.com\n',
    );
    const absent = await waitlist(['origins', 'remove', 'http://localhost:5173']);
    expect(absent.code).toBe(2);
    const { rows } = await db.owner.query('select origin from private.allowed_origins');
    expect(rows).toEqual([{ origin: 'https://launch.example.com' }]);
    const last = await waitlist(['origins', 'remove', 'https://launch.example.com']);
    expect(last.stderr).toContain('None is left: a page on any origin may add signups again.');
  });
});
