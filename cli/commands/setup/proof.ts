/**
 * setup's last word: `health --json` in a child process (a real signup from the site's origin, rolled back, and the
 * live page fetched), told as a verdict. Every finding that is not ok is printed; the verdict leaves out the key
 * copies' (the owner's next step, which setup names) and the pg_cron jobs' (the upkeep of a list, not a join: a job
 * the migrations scheduled a minute ago may not have run yet).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MAIN } from '../../connect/tools.ts';
import { exitCode, type Finding } from '../../findings/finding.ts';
import { say } from '../../terminal/terminal.ts';

/** Prints the proof and every finding that is not ok; returns health's exit code without the key copies'. */
export async function proveJoin() {
  const run = promisify(execFile)(process.execPath, [...process.execArgv, MAIN, 'health', '--json']);
  // health exits 1 or 2 on a finding: its JSON is on stdout either way.
  const { stdout } = await run.catch((failed: { stdout?: string }) => ({ stdout: failed.stdout ?? '' }));
  const all = (JSON.parse(stdout || '{}') as { findings?: Finding[] }).findings ?? [];
  for (const { check, outcome, says, fix } of all.filter((f) => !['ok', 'skipped'].includes(f.outcome))) {
    say(`${outcome.toUpperCase()} ${check}: ${says}${fix ? `\n  ${fix}` : ''}`);
  }
  const findings = all.filter(({ check }) => check !== 'key copies' && !check.startsWith('waitlist-'));
  const signup = findings.find((f) => f.check === 'signup');
  const site = findings.find((f) => f.check === 'site');
  const code = findings.length ? exitCode(findings) : 1;
  if (!code) say(`Proven: the live page answers (${site?.says}) and a join works (${signup?.says}).`);
  else say('Not proven yet: fix the above, then run `npm run waitlist -- health` (or setup again).');
  return code;
}
