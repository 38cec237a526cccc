/**
 * The first and only script the page names (index.html): a few hundred bytes that make the form
 * answer from the moment it shows, then fetch the rest without delaying the first paint.
 * README, "Early submits" and "A lean first load".
 */
import { holdEarlySubmits, WAITLIST_FORM_ID } from './features/waitlist/early-submit';
import { loadSupabase } from './features/waitlist/insert-email';
import { onFirstInteraction } from './lib/first-interaction';

holdEarlySubmits();

// The visitor is about to use the form: fetch its code and the backend client now.
onFirstInteraction(() => {
  if (!document.getElementById(WAITLIST_FORM_ID)) return; // the not-found page has none
  void import('./features/waitlist/waitlist-widget');
  void loadSupabase();
});

const startApp = () => void import('./main');

/** Runs `then` once the browser reports the first contentful paint: the prerendered page needs no script before it. */
function afterFirstPaint(then: () => void) {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return requestAnimationFrame(() => setTimeout(then));
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(then);
  }).observe({ type: 'paint', buffered: true });
}

// The dev server sends an empty page (nothing to paint until the app renders it).
if (import.meta.env.DEV) startApp();
else afterFirstPaint(startApp);
