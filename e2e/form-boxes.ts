/** Where the form's parts are, in CSS px: what must not move while the form changes state. */
export type FormBoxes = Record<'form' | 'field' | 'button', { x: number; y: number; width: number; height: number }>;

/** Runs in the page (Playwright's or puppeteer's `evaluate`): the boxes of the form, its field and button. */
export function formBoxesInPage(): FormBoxes {
  const box = (selector: string) => {
    const { x, y, width, height } = document.querySelector(selector)!.getBoundingClientRect();
    return { x, y: y + scrollY, width, height };
  };
  return { form: box('#waitlist-form'), field: box('#waitlist-email'), button: box('#waitlist-form button') };
}

/** The boxes as one line, for a report. */
export const describeBoxes = (boxes: FormBoxes) =>
  Object.entries(boxes)
    .map(([part, { x, y, width, height }]) => `${part} ${width}×${height} at (${x}, ${y})`)
    .join('; ');

/** The viewport widths the form must hold still at: the narrowest phone, a common phone, a desktop. */
export const STEADY_WIDTHS = [320, 390, 1280] as const;
