/**
 * The hosted project's settings, as the Management API tells the owner's token: Auth sign-ups off,
 * the Data API exposing `public` alone.
 */
import { hostedSettingsWeaker } from '../../connect/management.ts';
import { ok, problem, setup, type Finding } from '../../findings/finding.ts';

export async function checkManagement(ref: string, seconds: number): Promise<Finding> {
  const weaker = await hostedSettingsWeaker(ref, seconds).catch((error: Error) => error);
  if (weaker instanceof Error) {
    return setup(
      'project settings',
      weaker.message,
      'Check SUPABASE_ACCESS_TOKEN (Dashboard → Account → Access Tokens) and the project ref.',
    );
  }
  if (!weaker.length) return ok('project settings', 'Auth sign-ups off; the Data API exposes `public` alone.');
  return problem('project settings', `${weaker.join('; ')}.`, 'Run `npm run waitlist -- setup` (it pushes both).');
}
