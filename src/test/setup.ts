import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { resetMockBackend } from '../../mocks/handlers';
import { server } from '../../mocks/node';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  // sonner keeps its toasts in a module-level store.
  toast.dismiss();
  server.resetHandlers();
  resetMockBackend();
  vi.restoreAllMocks();
});
afterAll(() => server.close());
