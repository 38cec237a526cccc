import { renderToStaticMarkup } from 'react-dom/server';
import { showSending } from '../early-submit/early-submit';
import { WaitlistFormView } from './waitlist-form-view';

/** The form as the server renders it, placed in the document. */
function place(markup: string) {
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

describe('the form view', () => {
  it('while submitting is exactly the markup the first script makes of it, so the form hydrates over it', () => {
    const idle = place(renderToStaticMarkup(<WaitlistFormView email="" />));
    const submitting = place(renderToStaticMarkup(<WaitlistFormView email="" submitting />));
    showSending(idle.querySelector('form')!);
    expect(idle.innerHTML).toBe(submitting.innerHTML);
    idle.remove();
    submitting.remove();
  });
});
