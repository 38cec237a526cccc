import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { resetMockBackend } from '../../mocks/handlers';
import { server } from '../../mocks/node';

// findBy… and waitFor end as soon as what they wait for is there; the default 1 s is too short
// for a busy machine (a clean-clone run beside another one timed out loading the form's code).
configure({ asyncUtilTimeout: 10_000 });

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
