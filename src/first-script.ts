/**
 * The first and only script the page names (index.html, 404.html): about 4 kB that make the
 * form answer from the moment it shows, then fetch the rest without delaying the first paint.
 * README, "Early submits" and "A lean first load".
 */
import { WAITLIST_FORM_ID } from './features/waitlist/dom-ids';
import { holdEarlySubmits } from './features/waitlist/early-submit';
import { loadFormCode } from './features/waitlist/form-code';
import { onFirstInteraction } from './lib/first-interaction';

let app: Promise<unknown> | undefined;
/** The app (React, the router, the pages); a failed fetch is tried again on the next submit. */
function startApp() {
  app ??= import('./main').catch((error: unknown) => {
    app = undefined;
    console.error("Could not load the page's code:", error);
  });
}

/** A held submit needs the app and the form's code: (re)start fetching whichever is missing. */
holdEarlySubmits(() => {
  startApp();
  loadFormCode();
});

// The visitor is about to use the form: fetch its code and the backend client now.
onFirstInteraction(() => {
  if (document.getElementById(WAITLIST_FORM_ID)) loadFormCode(); // the not-found page has none
});

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
