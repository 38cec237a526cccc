/**
 * The data API, called as the page calls it, with a signup that must fail (no "@"): the guard checks
 * origin and limits before the address check and counts after it, so a 400 23514 proves the whole
 * path and adds nothing. And a read of the list with the same public key, which must be refused.
 */
import { randomUUID } from 'node:crypto';
import {
  allowOrigin,
  APPLY_MIGRATIONS,
  ok,
  problem,
  RESTORE_PROJECT,
  skipped,
  type Finding,
} from '../../findings/finding.ts';
import { parsed, request, whatItSaid, type Answer } from '../../connect/http.ts';
import type { Settings } from './settings.ts';

const CHECK = 'data API';
const READ = 'public read';
const WITH_DATABASE = `Run this check with DATABASE_URL set; apply the migrations if it says so (${APPLY_MIGRATIONS}).`;

/** What the data API's answer to the probe says about the list. */
export function judgeAnswer(answer: Answer, { site, api }: Settings): Finding {
  if ('failure' in answer) {
    const fix = answer.timedOut ? RESTORE_PROJECT : `Check VITE_SUPABASE_URL. ${RESTORE_PROJECT}`;
    return problem(CHECK, `${api}/rest/v1/waiting_list ${answer.failure}.`, fix);
  }
  const { status, code, said } = whatItSaid(answer);
  if (status === 400 && code === '23514') {
    return ok(
      CHECK,
      'The request reached the database: the guard admitted it, the address check refused it (400 23514), ' +
        'nothing was added.',
    );
  }
  if (status >= 200 && status < 300) {
    return problem(
      CHECK,
      `Accepted an address without "@" (${status}): the list's address check is missing and a row was added.`,
      'Restore the check waiting_list_email_format as supabase/migrations/*_waiting_list.sql adds it (or apply the ' +
        `migrations: ${APPLY_MIGRATIONS}), then: delete from public.waiting_list where email not like '%@%';`,
    );
  }
  if (status === 401 && code === '42501') {
    return problem(
      CHECK,
      `Refused the anonymous role (${said}): its grant or policy on the list is gone.`,
      'Restore them as supabase/migrations/*_waiting_list.sql sets them: grant insert (email) on table ' +
        'public.waiting_list to anon, authenticated; and the policy waiting_list_fresh_signup.',
    );
  }
  if (status === 401) {
    return problem(
      'key',
      `The data API refused the publishable key (${said}).`,
      'Copy the current publishable key (Dashboard → Project Settings → API Keys) into ' +
        "VITE_SUPABASE_PUBLISHABLE_KEY here, in the host's build settings and in the repository variables, " +
        'then rebuild and redeploy the site.',
    );
  }
  if (status === 402) {
    return problem(
      CHECK,
      `Supabase restricts the project (${said}): a quota is exceeded or a bill is overdue.`,
      "See the organization's Usage and Billing pages in the dashboard.",
    );
  }
  if (status === 403 && code === 'PT403') {
    return problem(
      'origins',
      `The guard refused a signup from the site's own origin, ${site} (${said}): private.allowed_origins does ` +
        'not list it, so every signup from the page fails.',
      allowOrigin(site),
    );
  }
  if (status === 404) {
    return problem(
      CHECK,
      `${api} has no table public.waiting_list (${said}).`,
      `If VITE_SUPABASE_URL names the right project, apply the migrations (${APPLY_MIGRATIONS}); if not, correct it.`,
    );
  }
  if (status === 429) {
    return problem(
      'limits',
      `The guard refused the probe as over a signup limit (${said}).`,
      'If this network sent many signups, wait for the next 10-minute slot or UTC day. If every visitor is ' +
        'refused, the shared "all" limit is full: see npm run waitlist -- limits and raise it ' +
        '(e.g. limits all --per-day N; supabase/security.md).',
    );
  }
  if (status === 540) return problem(CHECK, 'Supabase answered 540: the project is paused.', RESTORE_PROJECT);
  if (status >= 500) {
    return problem(CHECK, `Answered ${said}: the project is paused, restarting or down.`, RESTORE_PROJECT);
  }
  return problem(CHECK, `Answered ${said}, where a reachable list answers 400 23514.`, WITH_DATABASE);
}

/** What an allowed select showed of the list: its rows, or none yet; nothing when not JSON (the status says enough). */
function rowsShown(body: unknown) {
  if (!Array.isArray(body)) return '';
  if (body.length) return `, ${body.length} row shown`;
  return ', [] (no row yet visible, but the select was allowed)';
}

/** Only 401 42501 (no privilege) proves the public key reads nothing; any 2xx, even [], means a grant lets it in. */
export function judgeRead(answer: Answer, { api }: Settings): Finding {
  if ('failure' in answer) return skipped(READ, `Not checked: ${api} ${answer.failure} (see data API).`);
  const { status, code, said } = whatItSaid(answer);
  if (status === 401 && code === '42501') {
    return ok(
      READ,
      `A select on the list with the public key is refused (${said}): the public key reads nothing of it.`,
    );
  }
  if (status >= 200 && status < 300) {
    const rows = rowsShown(parsed(answer.body));
    return problem(
      READ,
      `A select on the list with the public key answered ${status}${rows}: a grant or policy lets anyone with ` +
        'the key read the list, where it must answer 401 42501.',
      'Run this check with DATABASE_URL set: it names the grant or policy and the statement that removes it. ' +
        'At once: revoke select on table public.waiting_list from anon, authenticated; and drop every policy on ' +
        'it but waiting_list_fresh_signup.',
    );
  }
  if (status === 401 && !code) return skipped(READ, 'Not checked: the data API refused the key (see key).');
  if (status >= 500) return skipped(READ, `Not checked: the data API answered ${said} (see data API).`);
  return problem(
    READ,
    `A select on the list with the public key answered ${said}, where a list the public key cannot read ` +
      'answers 401 42501.',
    WITH_DATABASE,
  );
}

export async function checkDataApi(settings: Settings, seconds: number): Promise<Finding[]> {
  const { site, api, key } = settings;
  const list = `${api}/rest/v1/waiting_list`;
  const headers = { apikey: key, authorization: `Bearer ${key}` };
  // The probe as supabase-js sends the page's insert (docs/data-api.md), from the page's origin;
  // the read as anyone holding the public key could send it.
  const body = JSON.stringify({ email: `waitlist-health-check-${randomUUID()}` }); // random, no "@": never valid
  const prefer = { 'content-type': 'application/json', prefer: 'return=minimal', origin: site };
  const [probe, read] = await Promise.all([
    request(list, { method: 'POST', headers: { ...headers, ...prefer }, body }, seconds),
    request(`${list}?select=*&limit=1`, { headers: { ...headers, accept: 'application/json' } }, seconds),
  ]);
  return [judgeAnswer(probe, settings), judgeRead(read, settings)];
}
