/**
 * The failed fetches of the form's code that e2e/build-only.load-failure.spec.ts (Playwright's
 * engines) and e2e/firefox-esr.load-failure.spec.ts (Firefox ESR) both act out: what fails
 * while the network is "down", and where the page then says 'Error' (docs/architecture.md,
 * "When the form's code fails to load").
 */
export type FailingFetch = {
  what: string;
  /** Whether a request to the site fails while the network is down. */
  failing: (url: URL) => boolean;
  /** The plain-HTML alert (the island did not arrive) or a toast (the island did). */
  errorIn: 'alert' | 'toast';
};

export const failingFetches: FailingFetch[] = [
  { what: 'every request to the site', failing: () => true, errorIn: 'alert' },
  { what: 'the island', failing: (url) => url.pathname.startsWith('/assets/waitlist-'), errorIn: 'alert' },
  { what: 'supabase-js', failing: (url) => url.pathname.startsWith('/assets/supabase-'), errorIn: 'toast' },
];

/** A broken deploy: the page answers, its chunks never do. */
export const chunksNeverArrive = (url: URL) => url.pathname.startsWith('/assets/');

export const ADDRESS = 'ada@example.com';
