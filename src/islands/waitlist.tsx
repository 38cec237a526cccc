import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { WAITLIST_ISLAND_ID } from '../features/waitlist/dom-ids';
import { receiveHandover, type EarlySubmitHandover } from '../features/waitlist/early-submit/early-submit';
import { WaitlistRoot } from '../features/waitlist/components/waitlist-root';

/** The island's root once hydrated: a page lives with it to the end; a test unmounts it. */
export let hydrated: Root | undefined;

/**
 * The page's one island: hydrates the prerendered waitlist form alone (React, React Query,
 * sonner and the form arrive in this chunk; the rest of the page is static HTML and CSS).
 * Called by load-form-code.ts once the visitor has acted, with the first script's early-submit half.
 */
export function hydrateWaitlist(handover: EarlySubmitHandover) {
  const island = document.getElementById(WAITLIST_ISLAND_ID);
  if (!island) return;
  receiveHandover(handover);
  hydrated = hydrateRoot(
    island,
    <StrictMode>
      <WaitlistRoot />
    </StrictMode>,
  );
}
