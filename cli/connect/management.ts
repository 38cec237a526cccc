/** Supabase's Management API, as the owner's token: the project's hosted settings (Auth sign-ups, the Data API). */
import { parsed, request, whatItSaid } from './http.ts';
import { tokenDestination } from './secret-url.ts';

/** The project ref: SUPABASE_PROJECT_REF, else the one in VITE_SUPABASE_URL (https://<ref>.supabase.co). */
export const projectRef = (env = process.env) =>
  env.SUPABASE_PROJECT_REF || /^https:\/\/([a-z]{20})\.supabase\.co\/?$/.exec(env.VITE_SUPABASE_URL ?? '')?.[1];
export const NO_TOKEN = 'SUPABASE_ACCESS_TOKEN or the project ref unset: sign-ups and exposed schemas not checked.';

/**
 * One call as the token's owner, to https://api.supabase.com or SUPABASE_API_URL (https only, but to this machine: a
 * stand-in): its JSON, or an Error saying why not.
 */
export async function management(path: string, seconds = 30): Promise<unknown> {
  const api = tokenDestination('SUPABASE_API_URL', 'https://api.supabase.com');
  const headers = { authorization: `Bearer ${process.env.SUPABASE_ACCESS_TOKEN}`, 'content-type': 'application/json' };
  const answer = await request(`${api.origin}${path}`, { headers }, seconds);
  if ('failure' in answer) throw new Error(`The Management API ${answer.failure}.`);
  if (answer.status >= 300) throw new Error(`The Management API answered ${whatItSaid(answer).said} to ${path}.`);
  return parsed(answer.body);
}

/** What is weaker than wanted in the hosted settings, one phrase each; none: as they should be. */
export async function hostedSettingsWeaker(ref: string, seconds?: number) {
  const read = async (path: string) => Object(await management(`/v1/projects/${ref}/${path}`, seconds));
  const auth = await read('config/auth');
  const schemas = String((await read('postgrest')).db_schema).split(/,\s*/);
  return [
    ...(auth.disable_signup === true ? [] : ['Auth lets anyone with the publishable key sign up (create Auth users)']),
    ...(schemas.join() === 'public' ? [] : [`the Data API exposes ${schemas.join(', ')}, not \`public\` alone`]),
  ];
}
