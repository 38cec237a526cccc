/**
 * The one script of unsubscribe.html, inlined by the build: the prerendered page's button
 * (src/pages/unsubscribe.ts), posting to the Supabase project the build names.
 */
import { backendUrl } from './lib/env';
import { confirmUnsubscribe } from './pages/unsubscribe';

confirmUnsubscribe(backendUrl!);
