/**
 * `health`: could a visitor join the list now, and if not, why and what to do. The public half
 * takes the visitor's path (the page, the data API); with DATABASE_URL, the database's half too.
 */
import { Command } from 'commander';
import { checkDataApi } from './health/data-api.ts';
import { checkDatabase } from './health/database.ts';
import { exitCode, report, skipped } from '../findings/finding.ts';
import { NO_TOKEN, projectRef } from '../connect/management.ts';
import { checkManagement } from './health/management.ts';
import { readSettings } from './health/settings.ts';
import { checkSite } from './health/site.ts';
import { UsageError, wholeNumber } from '../terminal/terminal.ts';

export function healthCommand(): Command {
  return new Command('health')
    .description(
      'Check that a visitor could join the list now: the site, the data API (adds nothing), and with DATABASE_URL ' +
        'the migrations, origins, limits, pg_cron jobs and a real signup, rolled back. Exit 0 healthy, 1 a problem ' +
        'visitors meet, 2 setup.',
    )
    .option('--timeout <seconds>', 'the longest any one wait may take (at least 1)', wholeNumber, 10)
    .option('--json', 'print {"healthy", "exitCode", "seconds", "findings"} as JSON')
    .action(async ({ timeout, json }: { timeout: number; json?: boolean }) => {
      if (timeout < 1) throw new UsageError('--timeout must be at least 1 second.');
      const startedAt = performance.now();
      const settings = readSettings();
      const unset = Array.isArray(settings); // the findings that say which setting is missing
      const publicHalf = unset ? [settings] : [checkSite(settings, timeout), checkDataApi(settings, timeout)];
      const databaseHalf = process.env.DATABASE_URL
        ? checkDatabase(unset ? undefined : settings.site, timeout)
        : [skipped('database', 'DATABASE_URL is not set: the public half alone was checked.')];
      const ref = process.env.SUPABASE_ACCESS_TOKEN && projectRef();
      const hosted = ref ? checkManagement(ref, timeout) : skipped('project settings', NO_TOKEN);
      const findings = (await Promise.all([...publicHalf, databaseHalf, hosted])).flat(2);
      report(findings, startedAt, json);
      process.exitCode = exitCode(findings);
    });
}
