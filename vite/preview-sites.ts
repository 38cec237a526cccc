/** A live project, a preview project and the site's other variables, for the preview guard's tests. */
export const LIVE = 'https://live-project.supabase.co';
export const PREVIEW = 'https://preview-project.supabase.co';
export const site = {
  VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_abc',
  VITE_SITE_URL: 'https://coming-soon.example.org',
  PRODUCTION_SUPABASE_URL: LIVE,
};
