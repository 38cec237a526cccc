/**
 * The environment every `wrangler pages dev` of the project runs with (preview, tests, bench):
 * offline and quiet. No usage metrics, no banner and update check, no fetch of Cloudflare's
 * `Request.cf` object (offline it prints ENOTFOUND stack traces).
 */
export const quietWrangler = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};
