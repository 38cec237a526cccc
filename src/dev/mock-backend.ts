import { apiMocking, supabaseUrl } from '../lib/env';

const RESET_MOCK = 'reset-mock';

/**
 * Starts the mock backend (MSW) before the app can make a call; resolves to why it could not
 * start, if it could not. Where the browser has no service workers (an insecure origin such as
 * http://<LAN address>), MSW intercepts inside the page; where it has them but the worker cannot
 * register (turned off, an untrusted HTTPS certificate), the mock cannot start.
 */
export async function startBackend(): Promise<string | undefined> {
  if (!apiMocking) {
    console.info(`Backend: Supabase at ${supabaseUrl}`);
    return undefined;
  }
  const [{ worker }, { resetMockBackend }] = await Promise.all([
    import('../../mocks/browser'),
    import('../../mocks/handlers'),
  ]);
  try {
    await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`Backend: mock (MSW) could not start, every submit will fail: ${reason}`);
    return reason;
  }
  // One click on the link below (in the console) empties the mock list back to its seed.
  const url = new URL(location.href);
  if (url.searchParams.has(RESET_MOCK)) {
    resetMockBackend();
    url.searchParams.delete(RESET_MOCK);
    history.replaceState(history.state, '', url);
    console.info('Mock list reset to its seed (taken@example.com).');
  }
  console.info(
    'Backend: mock (MSW). Magic addresses are listed in the README. ' +
      `Empty the mock list: ${location.origin}/?${RESET_MOCK}`,
  );
  return undefined;
}
