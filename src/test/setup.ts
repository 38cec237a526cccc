import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { resetMockBackend } from '../../mocks/handlers';
import { server } from '../../mocks/node';

// findBy… and waitFor end as soon as what they wait for is there; the default 1 s is too short
// for a busy machine (a clean-clone run beside another one timed out loading the form's code).
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  // sonner takes a closed toast out of the page on a 200 ms timer: every toast dismissed and gone
  // before the page is torn down, or that timer fires into the next file's absent window.
  toast.dismiss();
  const shown = () => globalThis.document?.querySelector('[data-sonner-toast]'); // no page in a node test
  await vi.waitFor(() => expect(shown()).toBeFalsy(), { timeout: 10_000 });
  cleanup();
  server.resetHandlers();
  resetMockBackend();
  vi.restoreAllMocks();
});
afterAll(() => server.close());
