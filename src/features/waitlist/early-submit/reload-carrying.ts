/**
 * The way back from a failed fetch of the form's code (docs/architecture.md, "When the form's
 * code fails to load"). Firefox keeps a failed module for the page's life: importing it again
 * fails at once, without a request, whichever chunk failed. So when a fetch fails again for a
 * submit made after an earlier failure, the page reloads (a new module map) with the address
 * carried across in sessionStorage, and the reloaded page sends it, once. Never a loop: only
 * the visitor's own submit may reload, once; a carried submit never does; a site that does not
 * answer gets 'Error' instead of the browser's error page. Part of the first script.
 */
const CARRIED = 'waitlist-carried-address';

let fetchFailed = false;
let submitMayReload = false;

/** A fetch of the form's code failed (shown to the visitor or not). */
export const noteFailedFetch = () => {
  fetchFailed = true;
};

/** The visitor submits the form: after a failed fetch, this submit may reload, once. */
export const noteSubmit = () => {
  submitMayReload = fetchFailed;
};

/**
 * The form's code failed to load for a submit of `address`. Resolves to true when the page is
 * reloading to send it; false when the caller must show 'Error' (the address stays typed).
 */
export async function reloadCarrying(address: string): Promise<boolean> {
  noteFailedFetch();
  if (!submitMayReload) return false;
  submitMayReload = false;
  if (!(await siteAnswers()) || !store(address)) return false;
  location.reload();
  return true;
}

/** The address a reload carried, if any: taken out of storage at once, so none stays there. */
export function takeCarried(): string | undefined {
  try {
    const address = sessionStorage.getItem(CARRIED);
    sessionStorage.removeItem(CARRIED);
    return address ?? undefined;
  } catch {
    return undefined; // storage refused (blocked cookies): nothing was carried
  }
}

/** Whether the site answers now: a reload into a dead network would show the browser's error page. */
const siteAnswers = () =>
  fetch(location.href, { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(10_000) }).then(
    (response) => response.ok,
    () => false,
  );

function store(address: string) {
  try {
    sessionStorage.setItem(CARRIED, address);
    return true;
  } catch {
    return false; // no storage: no reload, or the address would be lost
  }
}
