import { screen, waitFor } from '@testing-library/react';
import { execFileSync } from 'node:child_process';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { App } from './app';

const outDir = 'build/hydration-test';

/** Prerenders a path as the build does: the server bundle, run by Node in its own process. */
function prerender(path: string): { page: string; html: string } {
  const script = `const { render } = await import('./${outDir}/entry-server.js');
    process.stdout.write(JSON.stringify(await render(${JSON.stringify(path)})));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

beforeAll(() => {
  execFileSync('npx', ['vite', 'build', '--ssr', 'src/entry-server.tsx', '--outDir', outDir, '--logLevel', 'error']);
}, 60_000);

describe.each([
  ['/', 'landing'],
  ['/missing', 'not-found'],
])('the prerendered %s', (path, page) => {
  it(`holds the ${page} page and hydrates without a warning`, async () => {
    const prerendered = prerender(path);
    expect(prerendered.page).toBe(page);
    const container = document.createElement('div');
    container.innerHTML = prerendered.html;
    document.body.append(container);
    const problems = vi.spyOn(console, 'error').mockImplementation(() => {});
    const recovered: unknown[] = [];

    hydrateRoot(
      container,
      <StrictMode>
        <MemoryRouter initialEntries={[path]}>
          <App />
        </MemoryRouter>
      </StrictMode>,
      { onRecoverableError: (error) => recovered.push(error) },
    );
    if (page === 'landing') {
      // The form's code arrives on the first interaction, and then hydrates.
      document.dispatchEvent(new Event('pointerover'));
      await waitFor(() => expect(screen.getByRole('button', { name: 'JOIN WAITING LIST' })).toBeEnabled());
    } else {
      await waitFor(() => expect(problems).toHaveBeenCalledWith(expect.stringContaining('404 Error'), path));
    }

    const warnings = problems.mock.calls.map((call) => call.map(String).join(" ")).filter((message) => !message.includes('404 Error'));
    expect(warnings).toEqual([]);
    expect(recovered).toEqual([]);
    container.remove();
  });
});
