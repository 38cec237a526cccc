import { checkEmail } from '../../../../contracts/email.ts';
import { LOAD_FAILURE_ID, WAITLIST_FORM_ID } from '../dom-ids';
import { noteSubmit, reloadCarrying, takeCarried } from './reload-carrying';

/**
 * Submits that come before the form's code (docs/architecture.md, "Early submits"). The page's first script
 * calls holdEarlySubmits(): from then on a submit of the form is never a native submission and
 * never lost. Until the form's code connects, a submit is held — shown as sending at once when
 * the address passes the client checks — and connecting hands it over, to be handled exactly as
 * a later submit is: same checks, same toasts, one request.
 *
 * The first script is inlined into the page, a bundle of its own, and the island has its own
 * copy of this module: the first script hands its half to the island in the call that starts
 * it (src/islands/load-form-code.ts → hydrateWaitlist), never through anything another script could reach.
 */

/**
 * What the first script hands the island: whether a held submit shows as sending, taking over,
 * and the reload that sends an address again when a fetch of the form's code fails (reload-carrying.ts).
 */
export type EarlySubmitHandover = {
  holdingSending: () => boolean;
  connect: (carryOut: (address: string) => void) => () => void;
  reloadCarrying: (address: string) => Promise<boolean>;
};

let started = false;
let connected = false;
let held: string | undefined;
let onHold = () => {};

function holdSubmit(event: SubmitEvent) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.id !== WAITLIST_FORM_ID) return;
  event.preventDefault();
  noteSubmit();
  if (connected) return; // the form's own handler takes it
  hold(form, field(form).value); // a later submit replaces one still held: the visitor's latest intent counts
}

const field = (form: HTMLFormElement) => form.elements.namedItem('email') as HTMLInputElement;

function hold(form: HTMLFormElement, address: string) {
  held = address;
  if (checkEmail(held).ok) showSending(form);
  document.getElementById(LOAD_FAILURE_ID)?.setAttribute('hidden', '');
  onHold();
}

/**
 * The sending state of docs/product.md §4, shown before the form's code runs: the form's
 * `aria-busy` and the fieldset's `disabled`, the two attributes the form's view draws its states
 * from. The result is exactly the DOM the view renders while submitting, so that the form's code
 * hydrates over it (waitlist-form-view.test.tsx compares the two).
 */
export function showSending(form: HTMLFormElement, sending = true) {
  form.setAttribute('aria-busy', String(sending));
  form.querySelector('fieldset')!.disabled = sending;
}

/**
 * Started by the first script, before anything else: window's capture phase sees every submit
 * first. `fetchCode` runs on every held submit: it (re)starts fetching whatever the form needs.
 * A submit carried across a reload (reload-carrying.ts) is back in the field and held at once.
 */
export function holdEarlySubmits(fetchCode: () => void) {
  if (started) return;
  started = true;
  onHold = fetchCode;
  addEventListener('submit', holdSubmit, true);
  const form = document.getElementById(WAITLIST_FORM_ID);
  const carried = takeCarried();
  if (carried === undefined || !(form instanceof HTMLFormElement)) return;
  field(form).value = carried;
  hold(form, carried);
}

/**
 * The form's code could not be fetched for the held submit: the page reloads to send it
 * (reload-carrying.ts decides), or the submit is given back.
 */
export async function retryHeldSubmit() {
  if (connected || held === undefined) return;
  if (!(await reloadCarrying(held))) releaseHeldSubmit();
}

/**
 * No reload: the held submit is given back (idle again, the address still typed) and the
 * visitor is told; the next submit is held again and tries again.
 */
function releaseHeldSubmit() {
  if (connected || held === undefined) return;
  held = undefined;
  const form = document.getElementById(WAITLIST_FORM_ID);
  if (form instanceof HTMLFormElement) {
    showSending(form, false);
    form.querySelector('input')?.focus(); // disabling the form took focus away: give it back
  }
  document.getElementById(LOAD_FAILURE_ID)?.removeAttribute('hidden');
}

/** The first script's half, handed to the island by load-form-code.ts. */
export const handover: EarlySubmitHandover = {
  holdingSending: () => held !== undefined && checkEmail(held).ok,
  connect(carryOut) {
    connected = true;
    const address = held;
    held = undefined;
    if (address !== undefined) carryOut(address);
    return () => {
      connected = false;
    };
  },
  reloadCarrying,
};

/** The island's half: the first script's handover, once the island has been given it. */
let firstScript: EarlySubmitHandover | undefined;

/** Called by the island before it hydrates (src/islands/waitlist.tsx). */
export const receiveHandover = (from: EarlySubmitHandover) => {
  firstScript = from;
};

/** Whether a held submit shows as sending (the form's code then starts in that state). */
export const holdingSending = () => firstScript?.holdingSending() ?? false;

/** reloadCarrying (reload-carrying.ts) from the island; where no first script runs, never a reload. */
export const resendByReload = (address: string) => firstScript?.reloadCarrying(address) ?? Promise.resolve(false);

/**
 * The form's code takes over submits from here on; `carryOut` gets the address of the submit
 * the first script held until now, if any. Returns the function that gives submits back (the
 * form unmounts). Without a first script (the dev server renders the form itself) nothing is
 * held, and there is nothing to take over.
 */
export function connectEarlySubmit(carryOut: (address: string) => void): () => void {
  return firstScript?.connect(carryOut) ?? (() => {});
}
