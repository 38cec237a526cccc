import { act, screen, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { server } from '../../../../mocks/node';
import { renderWithRouter } from '../../../test/render-with-router';
import { recordWaitlistRequests } from '../../../test/waitlist-requests';
import { WaitlistRoot } from './waitlist-root';
import { buttonLabels } from '../texts/button-labels';
import { messages, type ToastMessage } from '../texts/messages';

const field = () => screen.getByRole('textbox', { name: 'Email address' });
const button = () =>
  screen.getByRole('button', { name: (name) => name === buttonLabels.idle || name === buttonLabels.sending });

async function findToast({ title, description }: ToastMessage) {
  const toast = (await screen.findByText(title)).closest('[data-sonner-toast]') as HTMLElement;
  expect(within(toast).getByText(description)).toBeInTheDocument();
  return toast;
}

async function submit(email: string) {
  const view = renderWithRouter(<WaitlistRoot />);
  if (email) await view.user.type(field(), email);
  await view.user.click(button());
  return view;
}

describe('the waitlist form', () => {
  it('starts idle: placeholder, label, enabled controls, the note', () => {
    renderWithRouter(<WaitlistRoot />);
    expect(field()).toHaveAttribute('placeholder', 'Enter your email address');
    expect(field()).toHaveAttribute('type', 'email');
    expect(field()).toHaveAttribute('autocomplete', 'email');
    expect(field()).toBeEnabled();
    expect(button()).toHaveAccessibleName(buttonLabels.idle);
    expect(button()).toBeEnabled();
    expect(screen.getByText('Early access • Priority notifications • Exclusive updates')).toBeInTheDocument();
  });

  it('adds an address: submitting state, success toast, field cleared, idle again', async () => {
    server.use(
      http.post('*/rest/v1/waiting_list', async () => {
        await delay(50);
        return new HttpResponse(null, { status: 201 });
      }),
    );
    await submit('ada@example.com');
    expect(button()).toHaveAccessibleName(buttonLabels.sending);
    expect(button()).toBeDisabled();
    expect(field()).toBeDisabled();
    await findToast(messages.added);
    expect(field()).toHaveValue('');
    expect(button()).toHaveAccessibleName(buttonLabels.idle);
    expect(field()).toBeEnabled();
  });

  it('says an address is already registered (destructive) and keeps it', async () => {
    await submit('TAKEN@example.com');
    const toast = await findToast(messages.alreadyRegistered);
    expect(toast).toHaveAttribute('data-type', 'error');
    expect(field()).toHaveValue('TAKEN@example.com');
  });

  it('reports any other failure, logs it, keeps the address', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.post('*/rest/v1/waiting_list', () =>
        HttpResponse.json({ code: 'XX000', details: null, hint: null, message: 'boom' }, { status: 500 }),
      ),
    );
    await submit('ada@example.com');
    await findToast(messages.failed);
    expect(log).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ code: 'XX000' }));
    expect(field()).toHaveValue('ada@example.com');
    expect(field()).toBeEnabled();
  });

  it('asks for an address when the field is empty, destructively, without a call', async () => {
    const requests = recordWaitlistRequests();
    await submit('');
    const toast = await findToast(messages.emailRequired);
    expect(toast).toHaveAttribute('data-type', 'error');
    expect(requests).toHaveLength(0);
  });

  it('refuses a malformed address without a call and keeps what was typed', async () => {
    const requests = recordWaitlistRequests();
    await submit('ada@example');
    await findToast(messages.invalidEmail);
    expect(field()).toHaveValue('ada@example');
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toHaveLength(0);
  });

  it('sends one request however often the visitor insists', async () => {
    const requests = recordWaitlistRequests();
    const { user } = renderWithRouter(<WaitlistRoot />);
    await user.type(field(), 'ada@example.com');
    await user.dblClick(button());
    await user.keyboard('{Enter}{Enter}');
    await findToast(messages.added);
    expect(requests).toHaveLength(1);
  });

  it('sends one request for a second submit that comes before React hears of the first', async () => {
    // React Query tells React of a mutation a task later (setTimeout); a busy browser runs the
    // second click of a double click first. Two submits in one task show it every time.
    const requests = recordWaitlistRequests();
    const { user } = renderWithRouter(<WaitlistRoot />);
    await user.type(field(), 'ada@example.com');
    const form = field().closest('form')!;
    act(() => {
      form.requestSubmit();
      form.requestSubmit();
    });
    await findToast(messages.added);
    expect(requests).toHaveLength(1);
  });
});
