import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { server } from '../../mocks/node';
import { waitingList } from '../../mocks/waiting-list';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  // sonner keeps its toasts in a module-level store.
  toast.dismiss();
  server.resetHandlers();
  waitingList.reset();
  vi.restoreAllMocks();
});
afterAll(() => server.close());
