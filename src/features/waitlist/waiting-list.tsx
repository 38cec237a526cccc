import { lazy, Suspense, useEffect } from 'react';
import { formCodeReady, loadFormCode } from './form-code';
import { JoinFormView } from './join-form-view';

// Prerendering waits for the form's code, so the HTML holds the whole form.
if (typeof window === 'undefined') loadFormCode();

/**
 * The form's code (React Query, toasts, then Supabase) stays off the first load: the first
 * script fetches it on the visitor's first interaction (or first submit), and tries again after
 * a failure. Until it has arrived the prerendered form is shown as is, and whatever is typed
 * into it is kept; a submit meanwhile is held (early-submit.ts).
 */
const WaitlistWidget = lazy(() => formCodeReady);

export function WaitingList() {
  return (
    <Suspense fallback={<FormWhileLoading />}>
      <WaitlistWidget />
    </Suspense>
  );
}

/** Shown only when the page is rendered in the browser (not hydrated): load at once. */
function FormWhileLoading() {
  useEffect(loadFormCode, []);
  return <JoinFormView email="" loading />;
}
