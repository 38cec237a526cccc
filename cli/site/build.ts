/** The site's build for Cloudflare Pages: vite build with the build's own variables, none of the owner's secrets. */
import { envFileValues } from '../connect/env-file.ts';
import { bin, childEnv, run } from '../connect/tools.ts';

/** What the build may see besides childEnv's basics: its own variables, none of the owner's secrets. */
const FOR_THE_BUILD = /^(VITE_\w+|PRODUCTION_\w+|CF_PAGES\w*|HSTS_PRELOAD)$/;

export const productionBranch = () => process.env.PRODUCTION_BRANCH || 'main';

/** The build's environment: for a preview, the preview's project over the live one, marked as Cloudflare marks one. */
function buildEnv(preview?: string): NodeJS.ProcessEnv {
  const env = childEnv(FOR_THE_BUILD);
  if (!preview) return env;
  const own = envFileValues('.env.preview.local');
  const live = process.env.PRODUCTION_SUPABASE_URL || process.env.VITE_SUPABASE_URL;
  const marks = { CF_PAGES: '1', CF_PAGES_BRANCH: preview, PRODUCTION_BRANCH: productionBranch() };
  return { ...env, ...own, ...marks, PRODUCTION_SUPABASE_URL: live };
}

/** vite build into `outDir`, with this process's build values (a preview's over them). */
export const build = (outDir: string, preview?: string) =>
  run(bin('vite'), ['build', '--outDir', outDir, '--emptyOutDir'], buildEnv(preview));
