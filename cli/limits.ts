import { Command } from 'commander';
import type pg from 'pg';
import { withDatabase } from './connection.ts';
import { count, json, out, say, UsageError } from './terminal.ts';

type Limit = { scope: string; per_10_minutes: number; per_day: number; applies_to: string };
type Job = { jobname: string; schedule: string };

/** The guard's pg_cron jobs: none where pg_cron is not enabled, which `db push` does not show (the migration's WARNING reaches only the server log). */
async function upkeepJobs(db: pg.Client): Promise<Job[]> {
  const { rows } = await db.query<{ cron: boolean }>(`select to_regclass('cron.job') is not null as cron`);
  if (!rows[0].cron) return [];
  return (await db.query<Job>(`select jobname, schedule from cron.job where jobname like 'waitlist-%' order by 1`))
    .rows;
}

const UPKEEP = 'waitlist-signup-guard-upkeep';
const NO_UPKEEP = [
  `Warning: the guard's upkeep job ${UPKEEP} is not scheduled: expired counters are never deleted, and`,
  'duplicates are refused (429) on a day without a signup. Enable pg_cron if it is not (Dashboard → Database →',
  `Extensions), then: select cron.schedule('${UPKEEP}', '* * * * *',`,
  "'select private.forget_expired_signups(), private.prepare_signup_secrets()');",
];

/** Columns padded to their widest cell. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  return [header, ...rows].map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

export function limitsCommand(): Command {
  return new Command('limits')
    .description(
      "Show the abuse guard's limits, the allowed origins and its pg_cron jobs; with a SCOPE and an option, change one.",
    )
    .argument('[scope]', 'the scope to change, e.g. ipv4')
    .option('--per-10-minutes <n>', 'signups per network per 10-minute slot', count)
    .option('--per-day <n>', 'signups per network per UTC day', count)
    .option('--json', 'print {"limits", "allowedOrigins", "upkeepJobs"} as JSON')
    .action(async (scope: string | undefined, options: { per10Minutes?: number; perDay?: number; json?: boolean }) => {
      const change = options.per10Minutes !== undefined || options.perDay !== undefined;
      if (change && !scope) throw new UsageError('Name the scope to change, e.g. limits ipv4 --per-day 2000.');
      if (scope && !change) throw new UsageError(`Give --per-10-minutes and/or --per-day for ${scope}.`);
      const { limits, origins, jobs } = await withDatabase(async (db) => {
        if (scope) {
          const changed = await db.query(
            `update private.signup_limits set per_10_minutes = coalesce($2, per_10_minutes),
                                              per_day = coalesce($3, per_day) where scope = $1`,
            [scope, options.per10Minutes ?? null, options.perDay ?? null],
          );
          if (changed.rowCount === 0) {
            const { rows } = await db.query<{ scope: string }>('select scope from private.signup_limits order by 1');
            throw new UsageError(
              `Unknown scope ${JSON.stringify(scope)}; the scopes are: ${rows.map((r) => r.scope).join(', ')}.`,
            );
          }
        }
        const limits = (await db.query<Limit>('select * from private.signup_limits order by scope')).rows;
        const origins = (await db.query<{ origin: string }>('select origin from private.allowed_origins order by 1'))
          .rows;
        return { limits, origins: origins.map((row) => row.origin), jobs: await upkeepJobs(db) };
      });
      if (!jobs.some((job) => job.jobname === UPKEEP)) for (const line of NO_UPKEEP) say(line);
      if (options.json) {
        json({ limits, allowedOrigins: origins, upkeepJobs: jobs });
        return;
      }
      const rows = limits.map((l) => [l.scope, String(l.per_10_minutes), String(l.per_day), l.applies_to]);
      for (const line of table(['scope', 'per 10 minutes', 'per day', 'applies to'], rows)) out(line);
      out();
      out('allowed origins');
      for (const origin of origins.length ? origins : ['(every origin: the list is empty)']) out(origin);
      out();
      out('upkeep jobs (pg_cron)');
      for (const line of table(
        ['job', 'schedule'],
        jobs.map((j) => [j.jobname, j.schedule]),
      ))
        out(line);
    });
}
