/**
 * The build's own public values, which the health check uses as a visitor's browser would:
 * from the environment or .env.local (cli/program.ts loads it; the shell's values win).
 */
import { publishableKeyOf } from '../../contracts/publishable-key.ts';
import { setup, type Finding } from './finding.ts';

export type Settings = {
  /** The deployed site's origin, VITE_SITE_URL: the page, and the Origin its signups carry. */
  site: string;
  /** The Supabase project's origin, VITE_SUPABASE_URL. */
  api: string;
  /** The publishable (or legacy anon) key the page sends. */
  key: string;
};

/** The origin of an http(s) URL, or undefined. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings | Finding[] {
  const values = {
    VITE_SITE_URL: env.VITE_SITE_URL,
    VITE_SUPABASE_URL: env.VITE_SUPABASE_URL,
    VITE_SUPABASE_PUBLISHABLE_KEY: publishableKeyOf(env),
  };
  const site = originOf(values.VITE_SITE_URL ?? '');
  const api = originOf(values.VITE_SUPABASE_URL ?? '');
  const key = values.VITE_SUPABASE_PUBLISHABLE_KEY;
  if (site && api && key) return { site, api, key };
  const unset = Object.entries(values).flatMap(([name, value]) => (value ? [] : [name]));
  const malformed = Object.entries({ VITE_SITE_URL: site, VITE_SUPABASE_URL: api }).flatMap(([name, origin]) =>
    values[name as keyof typeof values] && !origin ? [`${name} is not an http(s) URL`] : [],
  );
  const says = [...(unset.length ? [`Not set: ${unset.join(', ')}`] : []), ...malformed].join('. ');
  return [
    setup(
      'settings',
      `${says}.`,
      'Set them to the values the site was built with (.env.example), in the environment or .env.local; ' +
        'for the scheduled workflow, as repository variables (docs/operations.md, "Is the list taking signups?").',
    ),
  ];
}
