import { checkEmail } from './email';
import { buttonLabels } from './button-labels';

/**
 * Submits that come before the form's code (README, "Early submits"). The page's first script
 * calls holdEarlySubmits(): from then on a submit of the form is never a native submission and
 * never lost. Until the form's code connects, a submit is held — shown as sending at once when
 * the address passes the client checks — and connecting hands it over, to be handled exactly as
 * a later submit is: same checks, same toasts, one request.
 */
export const WAITLIST_FORM_ID = 'waitlist-form';

let started = false;
let connected = false;
let held: string | undefined;

function holdSubmit(event: SubmitEvent) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.id !== WAITLIST_FORM_ID) return;
  event.preventDefault();
  if (connected) return; // the form's own handler takes it
  const field = form.elements.namedItem('email') as HTMLInputElement;
  held = field.value; // a later submit replaces one still held: the visitor's latest intent counts
  if (checkEmail(held).ok) showSending(form);
}

/**
 * The sending state of docs/product.md §4, drawn before the form's code runs. It must be exactly the DOM
 * that JoinFormView renders while submitting, so that the form's code hydrates over it
 * (early-submit.test.tsx compares the two).
 */
export function showSending(form: HTMLFormElement) {
  form.setAttribute('aria-busy', 'true');
  form.querySelector('fieldset')!.disabled = true;
  (form.querySelector('button')!.lastChild as Text).data = buttonLabels.sending;
}

/** Started by the first script, before anything else: window's capture phase sees every submit first. */
export function holdEarlySubmits() {
  if (started) return;
  started = true;
  addEventListener('submit', holdSubmit, true);
}

/** Whether a held submit is being shown as sending (the form's code starts in that state). */
export const holdingSending = () => held !== undefined && checkEmail(held).ok;

/**
 * The form's code takes over submits from here on; `carryOut` gets the address of the submit
 * held until now, if any. Returns the function that gives submits back (the form unmounts).
 */
export function connectEarlySubmit(carryOut: (address: string) => void): () => void {
  connected = true;
  const address = held;
  held = undefined;
  if (address !== undefined) carryOut(address);
  return () => void (connected = false);
}
