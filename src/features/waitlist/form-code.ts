import { releaseHeldSubmit } from './early-submit';
import { loadSupabase } from './insert-email';

type Widget = typeof import('./waitlist-widget');

let resolveReady!: (widget: Widget) => void;
/** Settles once the form's code has arrived, however many attempts that took; never rejects. */
export const formCodeReady = new Promise<Widget>((resolve) => (resolveReady = resolve));

let attempt: Promise<void> | undefined;

/** In the browser, supabase-js too; prerendering (no window) renders the form and sends nothing. */
const fetchFormCode = async (): Promise<Widget> =>
  typeof window === 'undefined'
    ? import('./waitlist-widget')
    : (await Promise.all([import('./waitlist-widget'), loadSupabase()]))[0];

/**
 * Fetches the form's code (the form, React Query, sonner) and supabase-js; a no-op while a
 * fetch is under way or done. A failed fetch (a flaky connection, a deploy that replaced the
 * chunk) is never final: a held submit is given back with the 'Error' message, and the next
 * submit or interaction tries again (README, "Early submits").
 */
export function loadFormCode(): void {
  attempt ??= fetchFormCode().then(
    (widget) => resolveReady(widget),
    (error: unknown) => {
      attempt = undefined;
      console.error("Could not load the waiting list's code:", error);
      releaseHeldSubmit();
    },
  );
}
