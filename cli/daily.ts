import { Command } from 'commander';
import { withDatabase } from './connect/database.ts';
import { signupsPerDay, type Day } from './list/signups.ts';
import { json, out } from './terminal.ts';

const CHART_DAYS = 30;
const BAR_WIDTH = 40;

/** The last 30 UTC days up to today, as bars scaled to the busiest. */
function chart(days: Day[], today: string): string[] {
  const byDay = new Map(days.map((d) => [d.day, d.signups]));
  const end = Date.parse(`${today}T00:00:00Z`);
  const last = Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = new Date(end - (CHART_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, signups: byDay.get(day) ?? 0 };
  });
  const most = Math.max(1, ...last.map((d) => d.signups));
  const digits = String(most).length;
  return last.map(
    ({ day, signups }) =>
      `${day} ${String(signups).padStart(digits)} ${'█'.repeat(Math.round((signups / most) * BAR_WIDTH))}`,
  );
}

export function dailyCommand(): Command {
  return new Command('daily')
    .description(
      'Signups per UTC day, from the first signup to today, days without signups included: CSV (day,signups, ' +
        'CRLF line ends like export), oldest first. On a terminal: a bar chart of the last 30 days.',
    )
    .option('--json', 'print [{"day", "signups"}] as JSON')
    .action(async (options: { json?: boolean }) => {
      const { days, today } = await withDatabase(signupsPerDay);
      if (options.json) json(days);
      else if (process.stdout.isTTY) for (const line of chart(days, today)) out(line);
      else process.stdout.write(['day,signups', ...days.map((d) => `${d.day},${d.signups}`)].join('\r\n') + '\r\n');
    });
}
