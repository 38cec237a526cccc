/**
 * Limits over many networks: the 'all' scope caps every signup together, so no number of
 * networks can fill the free plan's storage in a day.
 */
import { describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { insertEmail, refusal } from '../harness/api-request';
import { connect } from '../harness/database';
import { restoreGuardAfterEach, setClock, setLimit } from './guard';
import { postgrestAnswer } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
let tag = 0;
const email = () => `limits-${(tag += 1)}@example.com`;

restoreGuardAfterEach(db);

describe("the 'all' scope", () => {
  it('caps signups from every network together, counted over every connection', async () => {
    await setClock(db.owner, '2099-05-01T10:00:00Z');
    await setLimit(db.owner, 'all', 'per_10_minutes', 6);
    const other = await connect(db.info, 'authenticator');
    try {
      for (let i = 0; i < 3; i += 1) {
        await insertEmail(db.api, email(), { clientIp: `198.51.100.${i + 1}` });
        await insertEmail(other, email(), { clientIp: `2001:db8:${i + 1}::1` });
      }
      const error = await refusal(insertEmail(other, email(), { clientIp: '192.0.2.200' }));
      expect(postgrestAnswer(error)).toEqual(answers.overSignupLimit);
      expect(postgrestAnswer(await refusal(insertEmail(db.api, email(), { clientIp: null })))).toEqual(
        answers.overSignupLimit,
      );
    } finally {
      await other.end();
    }
    await setClock(db.owner, '2099-05-01T10:10:00Z'); // the next slot
    await insertEmail(db.api, email(), { clientIp: '192.0.2.200' });
  });

  it('caps a day too', async () => {
    await setClock(db.owner, '2099-05-02T10:00:00Z');
    await setLimit(db.owner, 'all', 'per_day', 2);
    await insertEmail(db.api, email(), { clientIp: '198.51.100.10' });
    await setClock(db.owner, '2099-05-02T20:00:00Z');
    await insertEmail(db.api, email(), { clientIp: '198.51.100.11' });
    await refusal(insertEmail(db.api, email(), { clientIp: '198.51.100.12' }));
  });
});

describe('limits that hold in any time zone', () => {
  it('counts a UTC day whatever Prefer: timezone says, on a daylight-saving day too', async () => {
    // 2027-03-14 is the day New York moves its clocks forward: its "day" has 23 hours.
    await setClock(db.owner, '2027-03-14T12:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_day', 3);
    const context = { clientIp: '203.0.113.140' };
    for (let i = 0; i < 3; i += 1) await insertEmail(db.api, email(), { ...context, timezone: 'UTC' });
    for (const timezone of ['America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati']) {
      const error = await refusal(insertEmail(db.api, email(), { ...context, timezone }));
      expect(postgrestAnswer(error), timezone).toEqual(answers.overSignupLimit);
    }
    const { rows } = await db.owner.query(
      `select day_start, day_end from private.signup_secrets where day_start = '2027-03-14T00:00:00Z'`,
    );
    expect(rows).toEqual([{ day_start: new Date('2027-03-14T00:00:00Z'), day_end: new Date('2027-03-15T00:00:00Z') }]);
  });

  it('refuses a request whose Prefer asks for a transaction end (tx=rollback, tx=commit)', async () => {
    for (const prefer of ['tx=rollback', 'return=minimal, tx=commit', 'count=exact;TX = rollback']) {
      const error = await refusal(insertEmail(db.api, email(), { headers: { prefer } }));
      expect(postgrestAnswer(error), prefer).toEqual({
        status: 400,
        body: {
          code: 'PT400',
          details: null,
          hint: 'Send no tx= in Prefer.',
          message: 'Transaction preferences are not accepted.',
        },
      });
    }
    await insertEmail(db.api, email(), { headers: { prefer: 'return=minimal, timezone=UTC' } });
  });
});
