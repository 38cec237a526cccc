/**
 * The hosted project's settings as Supabase's Management API tells them to the owner's personal
 * access token (SUPABASE_ACCESS_TOKEN): Auth sign-ups off, the Data API exposing `public` alone.
 * https only (Node's own certificate checks), but to this machine (SUPABASE_API_URL, a stand-in).
 */
import { isLoopback } from '../connect/secret-url.ts';
import { UsageError } from '../terminal.ts';
import { ok, problem, setup, type Finding } from './finding.ts';
import { parsed, request, whatItSaid } from './http.ts';

export const SETUP_COMMAND = 'npm run waitlist -- setup';

/** The Management API's origin: https://api.supabase.com unless SUPABASE_API_URL names another. */
export function apiOrigin(): string {
  const url = new URL(process.env.SUPABASE_API_URL || 'https://api.supabase.com');
  if (url.protocol !== 'https:' && !isLoopback(url.hostname.replace(/^\[|\]$/g, '')))
    throw new UsageError('SUPABASE_API_URL must be https:// (plain http only to this machine).');
  return url.origin;
}

/** The project ref: SUPABASE_PROJECT_REF, else the one in VITE_SUPABASE_URL (https://<ref>.supabase.co). */
export const projectRef = (env = process.env) =>
  env.SUPABASE_PROJECT_REF || /^https:\/\/([a-z]{20})\.supabase\.co\/?$/.exec(env.VITE_SUPABASE_URL ?? '')?.[1];

/** One call to the Management API as the token's owner; its JSON, or an Error naming what it said. */
export async function management(path: string, init: RequestInit = {}, seconds = 30): Promise<unknown> {
  const headers = { authorization: `Bearer ${process.env.SUPABASE_ACCESS_TOKEN}`, 'content-type': 'application/json' };
  const answer = await request(`${apiOrigin()}${path}`, { ...init, headers }, seconds);
  if ('failure' in answer) throw new Error(`The Management API ${answer.failure}.`);
  if (answer.status >= 300) throw new Error(`The Management API answered ${whatItSaid(answer).said} to ${path}.`);
  return parsed(answer.body);
}

/** What is weaker than wanted in the hosted settings, one phrase each; none: as they should be. */
export async function hostedSettingsWeaker(ref: string, seconds?: number): Promise<string[]> {
  const auth = (await management(`/v1/projects/${ref}/config/auth`, {}, seconds)) as { disable_signup?: unknown };
  const api = (await management(`/v1/projects/${ref}/postgrest`, {}, seconds)) as { db_schema?: unknown };
  const schemas = String(api.db_schema ?? '')
    .split(',')
    .map((s) => s.trim());
  return [
    ...(auth.disable_signup === true ? [] : ['Auth lets anyone with the publishable key sign up (create Auth users)']),
    ...(schemas.join() === 'public' ? [] : [`the Data API exposes ${schemas.join(', ')}, not \`public\` alone`]),
  ];
}

export async function checkManagement(ref: string, seconds: number): Promise<Finding[]> {
  try {
    const weaker = await hostedSettingsWeaker(ref, seconds);
    if (!weaker.length) return [ok('project settings', 'Auth sign-ups off; the Data API exposes `public` alone.')];
    return [problem('project settings', `${weaker.join('; ')}.`, `Run \`${SETUP_COMMAND}\` (it pushes both).`)];
  } catch (error) {
    const fix = 'Check SUPABASE_ACCESS_TOKEN (Dashboard → Account → Access Tokens) and the project ref.';
    return [setup('project settings', (error as Error).message, fix)];
  }
}
