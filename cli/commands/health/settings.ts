/**
 * The build's own public values, which the health check uses as a visitor's browser would:
 * from the environment or .env.local (cli/program.ts loads it; the shell's values win).
 */
import { publishableKeyOf } from '../../../contracts/publishable-key.ts';
import { setup, type Finding } from '../../findings/finding.ts';

/** site: VITE_SITE_URL's origin (the page, and its signups' Origin); api: VITE_SUPABASE_URL's; key: the page's. */
export type Settings = { site: string; api: string; key: string };

/** The origin of an http(s) URL, or undefined. */
function originOf(value = '') {
  const url = URL.parse(value);
  return url && /^https?:$/.test(url.protocol) ? url.origin : undefined;
}

export function readSettings(env = process.env): Settings | Finding[] {
  const site = originOf(env.VITE_SITE_URL);
  const api = originOf(env.VITE_SUPABASE_URL);
  const key = publishableKeyOf(env);
  if (site && api && key) return { site, api, key };
  const values = { VITE_SITE_URL: env.VITE_SITE_URL, VITE_SUPABASE_URL: env.VITE_SUPABASE_URL };
  const unset = Object.entries({ ...values, VITE_SUPABASE_PUBLISHABLE_KEY: key }).filter(([, value]) => !value);
  const malformed = Object.entries({ VITE_SITE_URL: site, VITE_SUPABASE_URL: api }).filter(
    ([name, origin]) => values[name as keyof typeof values] && !origin,
  );
  const says = [
    ...(unset.length ? [`Not set: ${unset.map(([name]) => name).join(', ')}`] : []),
    ...malformed.map(([name]) => `${name} is not an http(s) URL`),
  ].join('. ');
  return [
    setup(
      'settings',
      `${says}.`,
      'Set them to the values the site was built with (.env.example), in the environment or .env.local; ' +
        'for the scheduled workflow, as repository variables (docs/operations.md, "Is the list taking signups?").',
    ),
  ];
}
