const events = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/** Whether the visitor got there before this code did: the pointer is on the page, or focus is in it. */
const alreadyThere = () =>
  document.querySelector(':hover') !== null || (document.activeElement !== null && document.activeElement !== document.body);

/** Calls `then` once, on the visitor's first pointer, touch, focus or key on the page. */
export function onFirstInteraction(then: () => void) {
  if (alreadyThere()) return then();
  const fire = () => {
    for (const event of events) removeEventListener(event, fire, true);
    then();
  };
  for (const event of events) addEventListener(event, fire, { capture: true, passive: true });
}
