import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { Providers } from '../app/providers';

/** Renders a piece of the app with its real providers (query client, toaster). */
export function renderWithProviders(ui: ReactElement, path = '/') {
  const user = userEvent.setup();
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Providers>{ui}</Providers>
    </MemoryRouter>,
  );
  return { user, ...view };
}
