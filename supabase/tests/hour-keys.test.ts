/**
 * The hourly keys' life: a signup never waits on the minute job, the job never waits on a signup
 * (its ACCESS EXCLUSIVE lock is taken with NOWAIT, on a table of a past hour only), a late
 * signup of the hour before only delays that table's emptying, and a key is used only in its hour.
 */
import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from '../../cli/tests/own-database';
import { connect } from '../harness/database';
import { sealList } from '../harness/sealed';
import { CLEAR_KEYS, setSealClock } from './sealing';

const db = useOwnDatabase('hour_keys');
const at = (hour: number) => new Date(Date.UTC(2033, 5, 1, hour, 20)).toISOString();

const clearKeys = async () =>
  (await db.owner.query<{ hour: Date }>(`${CLEAR_KEYS} order by hour`)).rows.map((row) => row.hour.toISOString());

describe('hourly keys', () => {
  it('are made by the hour’s first signup, used only in their hour, and emptied after it without waiting', async () => {
    await sealList(db.owner);
    await setSealClock(db.owner, at(3));
    await db.owner.query('select private.retire_hour_keys()'); // keys init's own hour is over
    await db.owner.query(`insert into public.waiting_list (email) values ('three@example.com')`);
    await db.owner.query(`insert into public.waiting_list (email) values ('three-b@example.com')`);
    expect(await clearKeys()).toEqual([new Date(Date.UTC(2033, 5, 1, 3)).toISOString()]);

    // A signup of hour 3 still open when hour 4 begins.
    const late = await connect(db.info, 'postgres');
    try {
      await late.query('begin');
      await late.query(`insert into public.waiting_list (email) values ('late-three@example.com')`);
      await setSealClock(db.owner, at(4));
      // Hour 4's signups go on beside it, under a key of their own.
      await db.owner.query(`insert into public.waiting_list (email) values ('four@example.com')`);
      // The job gives up at once on the table the open signup holds (a job that waited would wait
      // here forever: the signup commits only below), and blocks nobody.
      expect((await db.owner.query('select private.retire_hour_keys() as n')).rows[0].n).toBe(0);
      await db.owner.query(`insert into public.waiting_list (email) values ('four-b@example.com')`);
      await late.query('commit');
    } finally {
      await late.end();
    }
    expect((await db.owner.query('select private.retire_hour_keys() as n')).rows[0].n).toBe(1);
    expect(await clearKeys()).toEqual([new Date(Date.UTC(2033, 5, 1, 4)).toISOString()]);

    const { rows } = await db.owner.query<{ hour: Date }>(
      'select k.hour from private.signup_addresses a join private.hour_keys k on k.id = a.hour_key_id order by a.id',
    );
    expect(rows.map((row) => row.hour.getUTCHours()).slice(-5)).toEqual([3, 3, 3, 4, 4]);
  });

  it('are never used once their wrapped copy is gone: a list restarted in the hour seals under a new key', async () => {
    await setSealClock(db.owner, at(7));
    await db.owner.query(`insert into public.waiting_list (email) values ('seven@example.com')`);
    const hourKeyOf = async (email: string) =>
      (
        await db.owner.query<{ id: string | null }>(
          `select a.hour_key_id as id from public.waiting_list w join private.signup_addresses a on a.id = w.id
           where w.email = $1 or (w.email is null and a.address_hash = private.address_hash($1))`,
          [email],
        )
      ).rows[0].id;
    const before = await hourKeyOf('seven@example.com');
    expect(before).not.toBeNull();
    // The start-over the owner's runbook gives, without emptying the clear keys of this hour.
    await db.owner.query('truncate public.waiting_list cascade');
    await db.owner.query('delete from private.key_holders; delete from private.hour_keys');
    await db.owner.query(`insert into public.waiting_list (email) values ('seven-b@example.com')`);
    expect(await hourKeyOf('seven-b@example.com')).toBeNull(); // no owner key: stored as typed, not sealed
    await sealList(db.owner);
    await db.owner.query(`insert into public.waiting_list (email) values ('seven-c@example.com')`);
    const after = await hourKeyOf('seven-c@example.com');
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    const { rows } = await db.owner.query('select from private.hour_keys where id = $1', [after]);
    expect(rows).toHaveLength(1);
  });
});
