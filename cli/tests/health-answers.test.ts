/** How `waitlist health` reads the data API's answers the stand-ins do not give (health.test.ts has the others). */
import { describe, expect, it } from 'vitest';
import { judgeAnswer, judgeRead } from '../commands/health/data-api';

const settings = { site: 'https://coming-soon.example', api: 'https://ref.supabase.co', key: 'sb_publishable_x' };
const answer = (status: number, body: object | string = '') => ({
  status,
  headers: new Headers(),
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('the data API answer to the probe', () => {
  it.each([
    [540, '', 'Supabase answered 540: the project is paused.'],
    [502, '<html>Bad Gateway</html>', 'Answered 502: the project is paused, restarting or down.'],
    [402, { message: 'exceed_db_size_quota' }, 'Supabase restricts the project (402 "exceed_db_size_quota")'],
    [404, { code: 'PGRST205', message: 'Could not find the table' }, 'https://ref.supabase.co has no table'],
    [401, { code: '42501', message: 'permission denied' }, 'Refused the anonymous role (401 42501'],
    [201, '', 'Accepted an address without "@" (201): the list\'s address check is missing'],
    [400, { code: 'PT400', message: 'One signup per request.' }, 'Answered 400 PT400'],
  ])('%i %j: data API, "%s"', (status, body, says) => {
    const finding = judgeAnswer(answer(status, body), settings);
    expect(finding).toMatchObject({ check: 'data API', outcome: 'problem' });
    expect(finding.says).toContain(says);
    expect(finding.fix).toBeTruthy();
  });
});

describe('the data API answer to a read of the list with the public key', () => {
  it('401 42501 proves the public key reads nothing', () => {
    expect(
      judgeRead(answer(401, { code: '42501', message: 'permission denied for table waiting_list' }), settings),
    ).toMatchObject({ check: 'public read', outcome: 'ok' });
  });

  it.each([
    [200, '[]', 'answered 200, [] (no row yet visible, but the select was allowed)'],
    [200, '[{"id":1}]', 'answered 200, 1 row shown'],
    [206, '', 'answered 206'],
    [404, { code: 'PGRST205', message: 'Could not find the table' }, 'answered 404 PGRST205'],
  ])('%i %j is a problem: "%s"', (status, body, says) => {
    const finding = judgeRead(answer(status, body), settings);
    expect(finding).toMatchObject({ check: 'public read', outcome: 'problem' });
    expect(finding.says).toContain(says);
    expect(finding.fix).toBeTruthy();
  });

  it('leaves a refused key or a project that is down to the other findings', () => {
    expect(judgeRead(answer(401, { message: 'Invalid API key' }), settings).outcome).toBe('skipped');
    expect(judgeRead(answer(503, ''), settings).outcome).toBe('skipped');
  });
});
