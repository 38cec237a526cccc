import { devices, type Project } from '@playwright/test';

/** The tag of tests that need Chromium's DevTools protocol (CDP): the projects in other engines leave them out. */
export const CHROMIUM_ONLY = '@chromium-only';

/** The engines that E2E_ENGINES may add to Chromium (Playwright's own builds of them). */
const ENGINES = { firefox: devices['Desktop Firefox'], webkit: devices['Desktop Safari'] };
type Engine = keyof typeof ENGINES;

/** The engines named in E2E_ENGINES (comma-separated, e.g. `firefox,webkit`); none by default. */
function extraEngines(value = process.env.E2E_ENGINES ?? ''): Engine[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(name in ENGINES)) {
      throw new Error(`E2E_ENGINES: unknown engine "${name}"; known: ${Object.keys(ENGINES).join(', ')}`);
    }
  }
  return names as Engine[];
}

/**
 * `project` once more in each engine of E2E_ENGINES, named `<name>-<engine>`, without the
 * Chromium-only tests, and launched without the Chromium binary and flags of the config's `use`.
 */
export function inExtraEngines<P extends Project & { name: string }>(project: P): P[] {
  return extraEngines().map((engine) => ({
    ...project,
    name: `${project.name}-${engine}`,
    grepInvert: new RegExp(CHROMIUM_ONLY),
    use: { ...ENGINES[engine], launchOptions: {}, ...project.use },
  }));
}
