import { renderToStaticMarkup } from 'react-dom/server';
import {
  connectEarlySubmit,
  handover,
  holdEarlySubmits,
  holdingSending,
  receiveHandover,
  showSending,
} from './early-submit';
import { WaitlistFormView } from '../components/waitlist-form-view';

/** The form as the server renders it, placed in the document. */
function place(markup: string) {
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

describe('the sending state the first script draws', () => {
  it('is exactly the markup the form renders while submitting, so the form hydrates over it', () => {
    const idle = place(renderToStaticMarkup(<WaitlistFormView email="" />));
    const submitting = place(renderToStaticMarkup(<WaitlistFormView email="" submitting />));
    showSending(idle.querySelector('form')!);
    expect(idle.innerHTML).toBe(submitting.innerHTML);
    idle.remove();
    submitting.remove();
  });
});

describe('the handover from the first script to the island', () => {
  it('takes nothing where no first script runs (the dev server)', () => {
    const carryOut = vi.fn();
    expect(holdingSending()).toBe(false);
    connectEarlySubmit(carryOut)();
    expect(carryOut).not.toHaveBeenCalled();
  });

  it('hands the held submit over once; from then on submits are the form code’s', () => {
    const page = place(renderToStaticMarkup(<WaitlistFormView email="" />));
    const form = page.querySelector('form')!;
    const fetchCode = vi.fn();
    holdEarlySubmits(fetchCode);
    form.querySelector('input')!.value = 'held@example.com';
    form.requestSubmit();
    expect(fetchCode).toHaveBeenCalledTimes(1);
    expect(handover.holdingSending()).toBe(true);

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
    page.remove();
  });
});
