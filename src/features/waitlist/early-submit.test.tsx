import { renderToStaticMarkup } from 'react-dom/server';
import { showSending } from './early-submit';
import { JoinFormView } from './join-form-view';

/** The form as the server renders it, placed in the document. */
function place(markup: string) {
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

describe('the sending state the first script draws', () => {
  it('is exactly the markup the form renders while submitting, so the form hydrates over it', () => {
    const idle = place(renderToStaticMarkup(<JoinFormView email="" />));
    const submitting = place(renderToStaticMarkup(<JoinFormView email="" submitting />));
    showSending(idle.querySelector('form')!);
    expect(idle.innerHTML).toBe(submitting.innerHTML);
    idle.remove();
    submitting.remove();
  });
});
