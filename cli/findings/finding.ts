/**
 * One line of the health report: what was checked, found and, for a fault, the fix. 'problem': a
 * visitor would meet it (exit 1); 'setup': the check cannot be trusted until fixed (exit 2).
 */
import { EXIT, json, out } from '../terminal/terminal.ts';

export { APPLY_MIGRATIONS } from '../connect/database-errors.ts';

type Outcome = 'ok' | 'skipped' | 'problem' | 'setup';
export type Finding = { check: string; outcome: Outcome; says: string; fix?: string };

export const ok = (check: string, says: string): Finding => ({ check, outcome: 'ok', says });
export const skipped = (check: string, says: string): Finding => ({ check, outcome: 'skipped', says });
const fault =
  (outcome: Outcome) =>
  (check: string, says: string, fix: string): Finding => ({ check, outcome, says, fix });
export const problem = fault('problem');
export const setup = fault('setup');

/** Fixes more than one check names. */
export const RESTORE_PROJECT =
  'Open the project in the Supabase dashboard: if it says paused (a Free-plan project is paused after 7 days ' +
  "without activity), restore it there; otherwise see status.supabase.com and the project's logs. " +
  'docs/operations.md, "Is the list taking signups?".';
export const allowOrigin = (site: string) => `npm run waitlist -- origins add ${site}`;

export function exitCode(findings: Finding[]) {
  if (findings.some((f) => f.outcome === 'setup')) return EXIT.usage;
  if (findings.some((f) => f.outcome === 'problem')) return EXIT.failed;
  return EXIT.ok;
}

/** 42 s, 5 min, 3 h, 2 days: how long ago, in words. */
export function duration(seconds: number | null) {
  const ago = seconds ?? 0;
  if (ago < 120) return `${ago} s`;
  if (ago < 2 * 3600) return `${Math.round(ago / 60)} min`;
  if (ago < 2 * 86400) return `${Math.round(ago / 3600)} h`;
  return `${Math.round(ago / 86400)} days`;
}

const LABEL: Record<Outcome, string> = { ok: 'ok', skipped: 'skipped', problem: 'PROBLEM', setup: 'SETUP' };
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function verdict(findings: Finding[], seconds: string) {
  const problems = findings.filter((f) => f.outcome === 'problem').length;
  const setups = findings.filter((f) => f.outcome === 'setup').length;
  if (!problems && !setups) return `Healthy: a visitor can join the list right now (checked in ${seconds} s).`;
  const parts = [
    problems && `${plural(problems, 'problem')} a visitor would meet`,
    setups && `${plural(setups, 'setup problem')} to fix first`,
  ].filter(Boolean);
  return `${problems ? 'Not healthy' : 'Not checked in full'}: ${parts.join('; ')} (checked in ${seconds} s).`;
}

/** The report on stdout: one line per finding, its fix indented below, then the verdict. */
export function report(findings: Finding[], startedAt: number, asJson?: boolean) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(2);
  if (asJson) {
    json({ healthy: exitCode(findings) === EXIT.ok, exitCode: exitCode(findings), seconds: Number(seconds), findings });
    return;
  }
  const width = Math.max(...Object.values(LABEL).map((label) => label.length)) + 1;
  for (const finding of findings) {
    out(`${LABEL[finding.outcome].padEnd(width)}${finding.check}: ${finding.says}`);
    if (finding.fix) out(`${''.padEnd(width)}Fix: ${finding.fix}`);
  }
  out();
  out(verdict(findings, seconds));
}
