import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';

/** Renders a piece of the app as the browser would at `path`, with a user to drive it. */
export function renderWithRouter(ui: ReactElement, path = '/') {
  const user = userEvent.setup();
  const view = render(<MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>);
  return { user, ...view };
}
