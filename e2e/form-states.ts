import type { Page } from '@playwright/test';
import { WAITLIST_FORM_ID } from '../src/features/waitlist/dom-ids';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';

/** What the visitor sees of the form at one moment. */
export type FormState = { label: string; fieldDisabled: boolean; buttonDisabled: boolean; spinnerShown: boolean };

/**
 * Records every state the form passes through, in the page, from now on: assertions read the
 * record afterwards instead of racing a state that may last only a moment on a fast machine.
 */
export async function recordFormStates(page: Page): Promise<() => Promise<FormState[]>> {
  await page.evaluate((formId) => {
    const states: FormState[] = [];
    const record = () => {
      const form = document.getElementById(formId);
      if (!form) return;
      const button = form.querySelector('button')!;
      const state = {
        label: button.innerText,
        fieldDisabled: form.querySelector('input')!.matches(':disabled'),
        buttonDisabled: button.matches(':disabled'),
        spinnerShown: getComputedStyle(button.querySelector('[aria-hidden="true"]')!).display !== 'none',
      };
      if (JSON.stringify(state) !== JSON.stringify(states.at(-1))) states.push(state);
    };
    record();
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    (window as unknown as { formStates: FormState[] }).formStates = states;
  }, WAITLIST_FORM_ID);
  return () => page.evaluate(() => (window as unknown as { formStates: FormState[] }).formStates);
}

export const idle: FormState = {
  label: buttonLabels.idle,
  fieldDisabled: false,
  buttonDisabled: false,
  spinnerShown: false,
};
export const sending: FormState = {
  label: buttonLabels.sending,
  fieldDisabled: true,
  buttonDisabled: true,
  spinnerShown: true,
};
