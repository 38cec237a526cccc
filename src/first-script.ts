/**
 * The first and only script the landing page names (index.html), about 2 kB gzipped: it makes
 * the form answer from the moment it shows (README, "Early submits"), and fetches the form's
 * island on the visitor's first interaction or first submit. Nothing else of the page needs
 * JavaScript. On the dev server it starts the whole app instead (src/main.tsx).
 */
import { holdEarlySubmits } from './features/waitlist/early-submit';
import { loadFormCode } from './features/waitlist/form-code';
import { onFirstInteraction } from './lib/first-interaction';

if (import.meta.env.DEV) {
  holdEarlySubmits(() => {}); // the app renders the form at once, and it takes over
  void import('./main');
} else {
  holdEarlySubmits(loadFormCode);
  onFirstInteraction(loadFormCode);
}
