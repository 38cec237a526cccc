const events = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/**
 * Calls `then` once, on the visitor's first pointer, touch, focus or key on the page, or at
 * once if they got there before this code did (something already has focus).
 */
export function onFirstInteraction(then: () => void) {
  if (document.activeElement && document.activeElement !== document.body) return then();
  const fire = () => {
    for (const event of events) removeEventListener(event, fire, true);
    then();
  };
  for (const event of events) addEventListener(event, fire, { capture: true, passive: true });
}
