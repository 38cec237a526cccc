const events = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** Calls `then` once, on the visitor's first pointer, touch, focus or key on the page. */
export function onFirstInteraction(then: () => void) {
  const fire = () => {
    for (const event of events) removeEventListener(event, fire, true);
    then();
  };
  for (const event of events) addEventListener(event, fire, { capture: true, passive: true });
}
