import { Command } from 'commander';
import { withDatabase } from '../connect/database.ts';
import { limits, setLimit, type Limit } from '../list/guard.ts';
import { confirm, wholeNumber, json, out, say, UsageError } from '../terminal/terminal.ts';

type Options = { per10Minutes?: number; perDay?: number; json?: boolean; yes?: boolean };

/** Columns padded to their widest cell, printed. */
function table(header: string[], rows: string[][]) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const padded = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i]));
  for (const row of [header, ...rows]) out(padded(row).join('  ').trimEnd());
}

/** What a new limit would do that nobody means by accident, in words; none: nothing to ask. */
function surprises({ scope, per_10_minutes, per_day, applies_to }: Limit) {
  if (per_10_minutes === 0 || per_day === 0) {
    return [`With a limit of 0, every signup of scope ${scope} (${applies_to}) would be refused.`];
  }
  if (per_day < per_10_minutes) {
    return [`--per-day ${per_day} is below --per-10-minutes ${per_10_minutes}: the day's limit is reached first.`];
  }
  return [];
}

async function change(scope: string, options: Options) {
  await withDatabase(async (db) => {
    const all = await limits(db);
    const now = all.find((limit) => limit.scope === scope);
    const scopes = all.map((l) => l.scope).join(', ');
    if (!now) throw new UsageError(`Unknown scope ${JSON.stringify(scope)}; the scopes are: ${scopes}.`);
    const next = {
      ...now,
      per_10_minutes: options.per10Minutes ?? now.per_10_minutes,
      per_day: options.perDay ?? now.per_day,
    };
    const warnings = surprises(next);
    for (const line of warnings) say(line);
    if (warnings.length) {
      await confirm(`Set ${scope} to ${next.per_10_minutes} per 10 minutes, ${next.per_day} per day?`, options.yes);
    }
    await setLimit(db, next);
  });
}

export function limitsCommand(): Command {
  return new Command('limits')
    .description(
      "Show the abuse guard's limits (its allowed origins: origins list); with a SCOPE and an option, change one.",
    )
    .argument('[scope]', 'the scope to change, e.g. ipv4')
    .option('--per-10-minutes <n>', 'signups per network per 10-minute slot', wholeNumber)
    .option('--per-day <n>', 'signups per network per UTC day', wholeNumber)
    .option('-y, --yes', 'apply a limit of 0, or a day limit below the 10-minute one, without asking')
    .option('--json', 'print {"limits"} as JSON')
    .action(async (scope: string | undefined, options: Options) => {
      const changing = options.per10Minutes !== undefined || options.perDay !== undefined;
      if (changing && !scope) throw new UsageError('Name the scope to change, e.g. limits ipv4 --per-day 2000.');
      if (scope && !changing) throw new UsageError(`Give --per-10-minutes and/or --per-day for ${scope}.`);
      if (scope) await change(scope, options);
      const shown = await withDatabase(limits);
      const rows = shown.map((l) => [l.scope, String(l.per_10_minutes), String(l.per_day), l.applies_to]);
      if (options.json) json({ limits: shown });
      else table(['scope', 'per 10 minutes', 'per day', 'applies to'], rows);
    });
}
