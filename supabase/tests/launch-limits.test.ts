/**
 * Limits over many networks: the 'all' scope caps every signup together, so no number of
 * networks can fill the free plan's storage in a day.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { insertEmail, refusal } from './api-request';
import { connect } from './database';
import { restoreClock, restoreShippedLimits, setClock, setLimit } from './guard';
import { postgrestAnswer } from './postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
let tag = 0;
const email = () => `limits-${(tag += 1)}@example.com`;

afterEach(async () => {
  await restoreShippedLimits(db.owner);
  await restoreClock(db.owner);
});

describe("the 'all' scope", () => {
  it('caps signups from every network together, counted over every connection', async () => {
    await setClock(db.owner, '2099-05-01T10:00:00Z');
    await setLimit(db.owner, 'all', 'per_10_minutes', 6);
    const other = await connect(inject('database'), 'authenticator');
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
