import { handover, retryHeldSubmit } from '../features/waitlist/early-submit/early-submit';
import { noteFailedFetch } from '../features/waitlist/early-submit/reload-carrying';
import { loadSupabase } from '../lib/load-supabase';

let attempt: Promise<void> | undefined;

/**
 * Fetches the form's island (React, React Query, sonner, the form) and hydrates the form as
 * soon as it has arrived; supabase-js comes alongside (the insert waits for it). A no-op while
 * a fetch is under way or done. A failed fetch (a flaky connection, a deploy that replaced the
 * chunk) is never final: a held submit is sent again by a reload or given back with the 'Error'
 * message, and the next submit tries again (docs/architecture.md, "When the form's code fails
 * to load"). A failed fetch of supabase-js is met by the insert itself (insert-email.ts).
 */
export function loadFormCode(): void {
  loadSupabase().catch(noteFailedFetch);
  attempt ??= import('./waitlist').then(
    (island) => island.hydrateWaitlist(handover),
    (error: unknown) => {
      attempt = undefined;
      console.error("Could not load the waiting list's code:", error);
      noteFailedFetch();
      void retryHeldSubmit();
    },
  );
}
