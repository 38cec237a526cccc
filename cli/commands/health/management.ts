/** The hosted settings as the Management API tells the owner's token: Auth sign-ups off, the Data API on `public`. */
import { tokenDestination } from '../../connect/secret-url.ts';
import { ok, problem, setup, type Finding } from './finding.ts';
import { parsed, request, whatItSaid } from './http.ts';

/** The project ref: SUPABASE_PROJECT_REF, else the one in VITE_SUPABASE_URL (https://<ref>.supabase.co). */
export const projectRef = (env = process.env) =>
  env.SUPABASE_PROJECT_REF || /^https:\/\/([a-z]{20})\.supabase\.co\/?$/.exec(env.VITE_SUPABASE_URL ?? '')?.[1];
export const NO_TOKEN = 'SUPABASE_ACCESS_TOKEN or the project ref unset: sign-ups and exposed schemas not checked.';

/** One call as the token's owner, to https://api.supabase.com or SUPABASE_API_URL: its JSON, or an Error saying why not. */
export async function management(path: string, init: RequestInit = {}, seconds = 30): Promise<unknown> {
  const api = tokenDestination('SUPABASE_API_URL', 'https://api.supabase.com');
  const headers = { authorization: `Bearer ${process.env.SUPABASE_ACCESS_TOKEN}`, 'content-type': 'application/json' };
  const answer = await request(`${api.origin}${path}`, { ...init, headers }, seconds);
  if ('failure' in answer) throw new Error(`The Management API ${answer.failure}.`);
  if (answer.status >= 300) throw new Error(`The Management API answered ${whatItSaid(answer).said} to ${path}.`);
  return parsed(answer.body);
}

/** What is weaker than wanted in the hosted settings, one phrase each; none: as they should be. */
export async function hostedSettingsWeaker(ref: string, seconds?: number): Promise<string[]> {
  const read = async (path: string) => Object(await management(`/v1/projects/${ref}/${path}`, {}, seconds));
  const [auth, schemas] = [await read('config/auth'), String((await read('postgrest')).db_schema).split(/,\s*/)];
  return [
    ...(auth.disable_signup === true ? [] : ['Auth lets anyone with the publishable key sign up (create Auth users)']),
    ...(schemas.join() === 'public' ? [] : [`the Data API exposes ${schemas.join(', ')}, not \`public\` alone`]),
  ];
}

export async function checkManagement(ref: string, seconds: number): Promise<Finding> {
  const weaker = await hostedSettingsWeaker(ref, seconds).catch((error: Error) => error);
  const fix = 'Check SUPABASE_ACCESS_TOKEN (Dashboard → Account → Access Tokens) and the project ref.';
  if (weaker instanceof Error) return setup('project settings', weaker.message, fix);
  if (!weaker.length) return ok('project settings', 'Auth sign-ups off; the Data API exposes `public` alone.');
  return problem('project settings', `${weaker.join('; ')}.`, 'Run `npm run waitlist -- setup` (it pushes both).');
}
