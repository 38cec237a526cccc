import { handover, releaseHeldSubmit } from './early-submit';
import { loadSupabase } from './insert-email';

let attempt: Promise<void> | undefined;

/**
 * Fetches the form's island (React, React Query, sonner, the form) and hydrates the form as
 * soon as it has arrived; supabase-js comes alongside (the insert waits for it). A no-op while
 * a fetch is under way or done. A failed fetch of the island (a flaky connection, a deploy that
 * replaced the chunk) is never final: a held submit is given back with the 'Error' message, and
 * the next submit or interaction tries again (docs/architecture.md, "Early submits"). A failed fetch of
 * supabase-js is retried by the insert itself, which answers 'Error' if it fails again.
 */
export function loadFormCode(): void {
  loadSupabase().catch(() => {});
  attempt ??= import('../../islands/waitlist').then(
    (island) => island.hydrateWaitlist(handover),
    (error: unknown) => {
      attempt = undefined;
      console.error("Could not load the waiting list's code:", error);
      releaseHeldSubmit();
    },
  );
}
