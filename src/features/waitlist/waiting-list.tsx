import { lazy, Suspense, useEffect } from 'react';
import { onFirstInteraction } from '../../lib/first-interaction';
import { JoinFormView } from './join-form-view';

let startLoading!: () => void;
const started = new Promise<void>((resolve) => (startLoading = resolve));
if (typeof window === 'undefined') startLoading();
else onFirstInteraction(startLoading);

/**
 * The form's code (React Query, toasts, then Supabase) stays off the first load: it is
 * fetched on the visitor's first interaction. Until then the prerendered form is shown as is,
 * and whatever is typed into it is kept.
 */
const WaitlistWidget = lazy(() => started.then(() => import('./waitlist-widget')));

export function WaitingList() {
  return (
    <Suspense fallback={<FormWhileLoading />}>
      <WaitlistWidget />
    </Suspense>
  );
}

/** Shown only when the page is rendered in the browser (not hydrated): load at once. */
function FormWhileLoading() {
  useEffect(startLoading, []);
  return <JoinFormView email="" loading />;
}
