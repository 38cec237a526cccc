const events = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

let interacted = false;
let watching = false;
const waiting: (() => void)[] = [];

/** Whether the visitor got there before this code did: the pointer is on the page, or focus is in it. */
const alreadyThere = () =>
  document.querySelector(':hover') !== null ||
  (document.activeElement !== null && document.activeElement !== document.body);

function interact() {
  if (interacted) return;
  interacted = true;
  for (const event of events) removeEventListener(event, interact, true);
  for (const then of waiting.splice(0)) then();
}

/**
 * Calls `then` once the visitor has first pointed, touched, focused or pressed a key on the page
 * (at once if that already happened), even if the visitor acted before this code ran: a pointer
 * already over the page or focus already in it counts.
 */
export function onFirstInteraction(then: () => void) {
  if (interacted) return then();
  waiting.push(then);
  if (watching) return;
  watching = true;
  if (alreadyThere()) return interact();
  for (const event of events) addEventListener(event, interact, { capture: true, passive: true });
}
