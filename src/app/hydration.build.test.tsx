import { act, screen, waitFor, within } from '@testing-library/react';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { holdEarlySubmits } from '../features/waitlist/early-submit/early-submit';
import { loadFormCode } from '../islands/load-form-code';
import { buttonLabels } from '../features/waitlist/texts/button-labels';
import { messages } from '../features/waitlist/texts/messages';
import { recordWaitlistRequests } from '../test/waitlist-requests';

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
    const builder = await createBuilder({
      mode: 'test', logLevel: 'error', environments: { ssr: { build: { outDir: '${outDir}' } } },
    });
    await builder.build(builder.environments.ssr);`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script]);
}, 60_000);

// One page in the document for the whole file, as in the browser: the island module (and the
// root it creates) lives once per page.
let complaints: string[];
beforeAll(() => {
  const { page, html } = prerender('/');
  expect(page).toBe('landing');
  // The built page carries its stylesheet inline: the form's states are drawn by it.
  const [stylesheet] = readdirSync(`${outDir}/assets`).filter((name) => name.endsWith('.css'));
  document.head.innerHTML = `<style>${readFileSync(`${outDir}/assets/${stylesheet}`, 'utf8')}</style>`;
  document.body.innerHTML = `<div id="root">${html}</div>`;
  const problems = vi.spyOn(console, 'error');
  window.addEventListener('error', (event) => complaints.push(String(event.error ?? event.message)));
  complaints = [];
  return async () => {
    // Unmounted before the page goes: a toast's timer must not outlive the document it draws in.
    const { hydrated } = await import('../islands/waitlist');
    act(() => hydrated?.unmount());
    problems.mockRestore();
  };
});

it('the not-found page is prerendered whole: a plain link home, no script needed', () => {
  const { page, html } = prerender('/missing');
  expect(page).toBe('not-found');
  const container = document.createElement('div');
  container.innerHTML = html;
  expect(within(container).getByText('Oops! Page not found').tagName).toBe('P');
  expect(within(container).getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});

it('hydrates the form island over a submit the first script held, carries it out once, without a warning', async () => {
  const errors = vi.spyOn(console, 'error');
  const requests = recordWaitlistRequests();
  holdEarlySubmits(loadFormCode); // as the first script does
  const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Email address' });
  field.value = 'early@example.com';
  field.form!.requestSubmit();
  field.form!.requestSubmit();
  expect(screen.getByRole('button', { name: buttonLabels.sending })).toBeDisabled();

  const toast = await screen.findByText(messages.added.title);
  expect(within(toast.closest('[data-sonner-toast]')!).getByText(messages.added.description)).toBeInTheDocument();
  await waitFor(() => expect(field).toHaveValue(''));
  expect(screen.getByRole('button', { name: buttonLabels.idle })).toBeEnabled();
  expect(requests).toHaveLength(1);
  expect(await requests[0].json()).toEqual({ email: 'early@example.com' });
  // The page around the island is untouched: still the prerendered headline.
  expect(screen.getByRole('heading', { level: 1, name: 'COMING SOON' })).toBeInTheDocument();
  expect(errors.mock.calls.map((call) => call.map(String).join(' '))).toEqual([]);
  expect(complaints).toEqual([]);
});
