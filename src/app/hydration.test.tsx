import { act, screen, waitFor, within } from '@testing-library/react';
import { execFileSync } from 'node:child_process';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { holdEarlySubmits } from '../features/waitlist/early-submit';
import { loadFormCode } from '../features/waitlist/form-code';
import { messages } from '../features/waitlist/messages';
import { recordWaitingListRequests } from '../test/waiting-list-requests';
import { App } from './app';

const outDir = 'build/hydration-test';

/** Prerenders a path as the build does: the server bundle, run by Node in its own process. */
function prerender(path: string): { page: string; html: string } {
  const script = `const { render } = await import('./${outDir}/entry-server.js');
    process.stdout.write(JSON.stringify(await render(${JSON.stringify(path)})));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

/** The build's server bundle (Vite's `ssr` environment, as vite/prerender.ts builds it), in its own process. */
beforeAll(() => {
  const script = `const { createBuilder } = await import('vite');
    const builder = await createBuilder({ mode: 'test', logLevel: 'error', environments: { ssr: { build: { outDir: '${outDir}' } } } });
    await builder.build(builder.environments.ssr);`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script]);
}, 60_000);

/** Puts the prerendered page in the document and hydrates it as the browser does; collects what React complains of. */
function hydratePrerendered(path: string) {
  const prerendered = prerender(path);
  const container = document.createElement('div');
  container.innerHTML = prerendered.html;
  document.body.append(container);
  const problems = vi.spyOn(console, 'error').mockImplementation(() => {});
  const recovered: unknown[] = [];
  let root: Root | undefined;
  const hydrate = () =>
    (root = hydrateRoot(
      container,
      <StrictMode>
        <MemoryRouter initialEntries={[path]}>
          <App />
        </MemoryRouter>
      </StrictMode>,
      { onRecoverableError: (error) => recovered.push(error) },
    ));
  const remove = () => {
    act(() => root?.unmount());
    container.remove();
  };
  const complaints = () => [
    ...problems.mock.calls
      .map((call) => call.map(String).join(' '))
      .filter((message) => !message.includes('404 Error')),
    ...recovered,
  ];
  return { page: prerendered.page, problems, hydrate, complaints, remove };
}

describe.each([
  ['/', 'landing'],
  ['/missing', 'not-found'],
])('the prerendered %s', (path, page) => {
  it(`holds the ${page} page and hydrates without a warning`, async () => {
    const prerendered = hydratePrerendered(path);
    expect(prerendered.page).toBe(page);
    prerendered.hydrate();
    if (page === 'landing') {
      // The first script fetches the form's code on the first interaction; then it hydrates.
      loadFormCode();
      await waitFor(() => expect(screen.getByRole('button', { name: 'JOIN WAITING LIST' })).toBeEnabled());
    } else {
      await waitFor(() =>
        expect(prerendered.problems).toHaveBeenCalledWith(expect.stringContaining('404 Error'), path),
      );
    }
    expect(prerendered.complaints()).toEqual([]);
    prerendered.remove();
  });
});

it('hydrates over a submit the first script held, and carries it out once', async () => {
  const requests = recordWaitingListRequests();
  const prerendered = hydratePrerendered('/');
  holdEarlySubmits(loadFormCode); // as the first script does
  const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Email address' });
  field.value = 'early@example.com';
  field.form!.requestSubmit();
  field.form!.requestSubmit();
  expect(screen.getByRole('button', { name: 'SECURING ACCESS...' })).toBeDisabled();

  prerendered.hydrate();
  const toast = await screen.findByText(messages.added.title);
  expect(within(toast.closest('[data-sonner-toast]')!).getByText(messages.added.description)).toBeInTheDocument();
  await waitFor(() => expect(field).toHaveValue(''));
  expect(screen.getByRole('button', { name: 'JOIN WAITING LIST' })).toBeEnabled();
  expect(requests).toHaveLength(1);
  expect(await requests[0].json()).toEqual({ email: 'early@example.com' });
  expect(prerendered.complaints()).toEqual([]);
  prerendered.remove();
});
