/**
 * The /unsubscribe page's behaviour (docs/product.md, decisions). The token is in the URL's
 * fragment, which no request carries; opening the page sends nothing. One click POSTs RFC 8058's
 * one-click body to the unsubscribe function (a CORS simple request) and says what it answered.
 */
export const UNSUBSCRIBE_IDS = { status: 'unsubscribe-status', button: 'unsubscribe-button' } as const;

export const unsubscribeTexts = {
  ask: 'Stop all emails from this list to your address?',
  noLink: 'To unsubscribe, open this page from the Unsubscribe link at the end of one of our emails.',
  button: 'Unsubscribe',
  sending: 'Unsubscribing…',
  done: 'Done: you will get no more emails from this list.',
  notValid: 'This link is not valid, or it is a test message’s: nothing changed.',
  later: 'Nothing changed: your unsubscribe could not be recorded right now. Please try again later.',
} as const;

/** The function's answer (supabase/functions/unsubscribe/index.ts) in words; 0: no answer at all. */
const outcome = (status: number) => (status === 200 ? 'done' : status === 403 ? 'notValid' : 'later');

/** Wires the page's button to the function at `backend`; returns what undoes it (the dev page's effect). */
export function confirmUnsubscribe(backend: string, fragment = location.hash): () => void {
  const status = document.getElementById(UNSUBSCRIBE_IDS.status)!;
  const button = document.getElementById(UNSUBSCRIBE_IDS.button) as HTMLButtonElement;
  const action = button.parentElement!; // hidden with its button: the button's display is its class's
  const token = fragment.slice(1);
  if (!token) {
    status.textContent = unsubscribeTexts.noLink;
    action.hidden = true;
    return () => undefined;
  }
  const url = new URL('/functions/v1/unsubscribe', backend);
  url.searchParams.set('token', token);
  const click = async () => {
    button.disabled = true;
    status.textContent = unsubscribeTexts.sending;
    const body = new URLSearchParams({ 'List-Unsubscribe': 'One-Click' });
    const answer = outcome(
      await fetch(url, { method: 'POST', body }).then(
        ({ status }) => status,
        () => 0,
      ),
    );
    status.textContent = unsubscribeTexts[answer];
    button.disabled = false;
    action.hidden = answer !== 'later';
    if (action.hidden) status.focus(); // focus stays in the page, not lost with the button
  };
  button.addEventListener('click', click);
  button.disabled = false;
  return () => button.removeEventListener('click', click);
}
