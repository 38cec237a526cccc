import { WAITLIST_FORM_ID } from '../dom-ids';
import { connectEarlySubmit, handover, holdEarlySubmits, holdingSending, receiveHandover } from './early-submit';

/** A form with the id, field and button the first script looks for, placed in the document. */
function placeForm() {
  const form = document.createElement('form');
  form.id = WAITLIST_FORM_ID;
  form.innerHTML = '<fieldset><input type="email" name="email"><button type="submit">Join</button></fieldset>';
  document.body.append(form);
  return form;
}

describe('the handover from the first script to the island', () => {
  it('takes nothing where no first script runs (the dev server)', () => {
    const carryOut = vi.fn();
    expect(holdingSending()).toBe(false);
    connectEarlySubmit(carryOut)();
    expect(carryOut).not.toHaveBeenCalled();
  });

  it('hands the held submit over once; from then on submits are the form code’s', () => {
    const form = placeForm();
    const fetchCode = vi.fn();
    holdEarlySubmits(fetchCode);
    form.querySelector('input')!.value = 'held@example.com';
    form.requestSubmit();
    expect(fetchCode).toHaveBeenCalledTimes(1);
    expect(handover.holdingSending()).toBe(true);
    expect(form).toHaveAttribute('aria-busy', 'true');
    expect(form.querySelector('fieldset')).toBeDisabled();

    receiveHandover(handover); // as src/islands/waitlist.tsx does
    expect(holdingSending()).toBe(true);
    const carryOut = vi.fn();
    connectEarlySubmit(carryOut);
    expect(carryOut).toHaveBeenCalledExactlyOnceWith('held@example.com');
    expect(holdingSending()).toBe(false);

    const later = vi.fn();
    connectEarlySubmit(later);
    form.requestSubmit();
    expect(later).not.toHaveBeenCalled();
    expect(fetchCode).toHaveBeenCalledTimes(1);
    form.remove();
  });
});
