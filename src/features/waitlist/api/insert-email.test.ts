import { http, HttpResponse } from 'msw';
import { server } from '../../../../mocks/node';
import { recordWaitlistRequests } from '../../../test/waitlist-requests';
import { insertEmail, outcomeOf } from './insert-email';

const postgrestError = (code: string, message: string) => ({ code, details: null, hint: null, message });

describe('outcomeOf: the error object supabase-js hands back (POSTGREST.md)', () => {
  it.each([
    ['no error (201)', null, 'added'],
    [
      '23505 unique violation',
      postgrestError('23505', 'duplicate key value violates unique constraint "k"'),
      'already-registered',
    ],
    ['23503 foreign key', postgrestError('23503', 'violates foreign key constraint'), 'failed'],
    ['23514 check violation', postgrestError('23514', 'violates check constraint "c"'), 'failed'],
    ['23502 not null', postgrestError('23502', 'null value in column "email"'), 'failed'],
    ['42501 row-level security', postgrestError('42501', 'new row violates row-level security policy'), 'failed'],
    ['42P01 unknown table', postgrestError('42P01', 'relation does not exist'), 'failed'],
    ['PGRST205 unknown table', postgrestError('PGRST205', 'Could not find the table'), 'failed'],
    ['08006 database unreachable', postgrestError('08006', 'connection failure'), 'failed'],
    ['PGRST003 pool timeout', postgrestError('PGRST003', 'Timed out acquiring connection'), 'failed'],
    ['XX000 internal error', postgrestError('XX000', 'internal error'), 'failed'],
    ['gateway 401 without a code', { message: 'Invalid API key', hint: 'Double check your key.' }, 'failed'],
    ['non-JSON 502 body', { message: '<html>502 Bad Gateway</html>' }, 'failed'],
    ['network failure', { message: 'TypeError: Failed to fetch', details: 'stack', hint: '', code: '' }, 'failed'],
  ])('%s → %s', (_, error, outcome) => {
    expect(outcomeOf(error)).toBe(outcome);
  });
});

describe('insertEmail through supabase-js and the mock backend', () => {
  it('sends one POST of {email} to the table with the public key, asking for nothing back', async () => {
    const requests = recordWaitlistRequests();
    await expect(insertEmail('ada@example.com')).resolves.toBe('added');

    expect(requests).toHaveLength(1);
    const [request] = requests;
    const url = new URL(request.url);
    expect(request.method).toBe('POST');
    expect(url.pathname + url.search).toBe('/rest/v1/waiting_list');
    expect(request.headers.get('apikey')).toBeTruthy();
    expect(request.headers.get('authorization')).toBe(`Bearer ${request.headers.get('apikey')}`);
    expect(request.headers.get('prefer')).toBeNull();
    expect(await request.json()).toEqual({ email: 'ada@example.com' });
  });

  it('reads a 409 with code 23505 as already registered, in any letter case', async () => {
    await expect(insertEmail('Taken@Example.com')).resolves.toBe('already-registered');
  });

  it.each([
    ['a PostgREST 500', () => HttpResponse.json(postgrestError('XX000', 'internal error'), { status: 500 })],
    ['a 401 from the gateway', () => HttpResponse.json({ message: 'Invalid API key' }, { status: 401 })],
    ['an HTML 502 from a proxy', () => new HttpResponse('<html>Bad Gateway</html>', { status: 502 })],
    ['a network failure', () => HttpResponse.error()],
  ])('throws the error for %s', async (_, answer) => {
    server.use(http.post('*/rest/v1/waiting_list', answer));
    await expect(insertEmail('ada@example.com')).rejects.toMatchObject({ message: expect.any(String) });
  });
});
