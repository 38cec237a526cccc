/**
 * The landing page's one script (index.html), inlined into the page by the build
 * (vite/inline-page-scripts.ts), about 2 kB gzipped: it makes the form answer from the moment
 * it shows (docs/architecture.md, "Early submits"), and fetches the form's island on the visitor's first
 * interaction or first submit. Nothing else of the page needs JavaScript.
 */
import { holdEarlySubmits } from './features/waitlist/early-submit/early-submit';
import { loadFormCode } from './islands/load-form-code';
import { onFirstInteraction } from './lib/first-interaction';

holdEarlySubmits(loadFormCode);
onFirstInteraction(loadFormCode);
