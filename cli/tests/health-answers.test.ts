/** How `waitlist health` reads the data API's answers the stand-ins do not give (health.test.ts has the others). */
import { describe, expect, it } from 'vitest';
import { judgeAnswer } from '../health/data-api';

const settings = { site: 'https://coming-soon.example', api: 'https://ref.supabase.co', key: 'sb_publishable_x' };
const answer = (status: number, body: object | string = '') => ({
  status,
  headers: new Headers(),
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('the data API answer to the probe', () => {
  it.each([
    [540, '', 'data API', 'Supabase answered 540: the project is paused.'],
    [502, '<html>Bad Gateway</html>', 'data API', 'Answered 502: the project is paused, restarting or down.'],
    [
      402,
      { message: 'exceed_db_size_quota' },
      'data API',
      'Supabase restricts the project (402 "exceed_db_size_quota")',
    ],
    [
      404,
      { code: 'PGRST205', message: 'Could not find the table' },
      'data API',
      'https://ref.supabase.co has no table',
    ],
    [401, { code: '42501', message: 'permission denied' }, 'data API', 'Refused the anonymous role (401 42501'],
    [201, '', 'data API', 'Accepted an address without "@" (201): the list\'s address check is missing'],
    [400, { code: 'PT400', message: 'One signup per request.' }, 'data API', 'Answered 400 PT400'],
  ])('%i %j: %s, "%s"', (status, body, check, says) => {
    const finding = judgeAnswer(answer(status, body), settings);
    expect(finding).toMatchObject({ check, outcome: 'problem' });
    expect(finding.says).toContain(says);
    expect(finding.fix).toBeTruthy();
  });
});
