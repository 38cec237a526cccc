/** The lints live with `waitlist health`, which runs them on the live database too. */
export { EXPOSED_SCHEMAS, lints } from '../../cli/health/lints';
