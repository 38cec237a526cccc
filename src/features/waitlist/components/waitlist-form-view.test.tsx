import { render, screen, within } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { showSending } from '../early-submit/early-submit';
import { buttonLabels } from '../texts/button-labels';
import { WaitlistFormView } from './waitlist-form-view';

/** The form as the server renders it, placed in the document. */
function place(markup: string) {
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

describe('the form view', () => {
  it('names the button by the one label it shows: idle, then sending', () => {
    const { rerender } = render(<WaitlistFormView email="" />);
    const button = screen.getByRole('button');
    expect(button).toHaveAccessibleName(buttonLabels.idle);
    expect(within(button).getByText(buttonLabels.idle)).toBeVisible();
    expect(within(button).getByText(buttonLabels.sending)).not.toBeVisible();

    rerender(<WaitlistFormView email="" submitting />);
    expect(button).toHaveAccessibleName(buttonLabels.sending);
    expect(button).toBeDisabled();
    expect(within(button).getByText(buttonLabels.sending)).toBeVisible();
    expect(within(button).getByText(buttonLabels.idle)).not.toBeVisible();
  });

  it('says the sending label in a status region outside the busy form, there before it speaks', () => {
    const { rerender } = render(<WaitlistFormView email="" />);
    const status = screen.getByRole('status');
    expect(document.querySelector('form')).not.toContainElement(status); // aria-busy would mute it
    expect(within(status).getByText(buttonLabels.sending)).not.toBeVisible();

    rerender(<WaitlistFormView email="" submitting />);
    expect(screen.getByRole('status')).toBe(status);
    expect(within(status).getByText(buttonLabels.sending)).toBeVisible();
  });

  it('while submitting is exactly the markup the first script makes of it, so the form hydrates over it', () => {
    const idle = place(renderToStaticMarkup(<WaitlistFormView email="" />));
    const submitting = place(renderToStaticMarkup(<WaitlistFormView email="" submitting />));
    showSending(idle.querySelector('form')!);
    expect(idle.innerHTML).toBe(submitting.innerHTML);
    idle.remove();
    submitting.remove();
  });
});
