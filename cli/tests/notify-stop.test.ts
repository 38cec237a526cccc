/**
 * Stopping is safe and clear: the first Ctrl-C lets the messages in flight finish and be
 * recorded, a second stops at once; one press delivered twice by `npm run` is one press; an
 * address waiting to be tried again after a 4xx is left to send, after Ctrl-C and kill -9 alike.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { SAME_PRESS_MS } from '../commands/notify/run';
import { letterArgs } from './notify-letter';
import { countRows, useOwnDatabase } from './own-database';
import { startCli, waitFor } from './run-cli';
import { numbered, seed } from './seed';
import { startInbox, type Inbox } from './smtp';

const db = useOwnDatabase('cli_notify_stop');
let inbox: Inbox;
let everyone: number;
beforeAll(async () => {
  await seed(db.owner, numbered('stop', 20));
  everyone = await countRows(db.owner, 'public.waiting_list');
});
beforeEach(async () => {
  inbox = await startInbox();
});
afterEach(() => inbox.close());

const states = async (campaign: string) =>
  Object.fromEntries(
    (
      await db.owner.query(
        'select state, count(*)::int as n from private.notify_journal where campaign = $1 group by 1',
        [campaign],
      )
    ).rows.map((row) => [row.state, row.n]),
  );

/** Starts a send whose stderr the test can watch while it runs. */
function send(campaign: string, ...more: string[]) {
  const run = startCli([...letterArgs(campaign), ...more], { SMTP_URL: inbox.url });
  let stderr = '';
  run.child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { ...run, stderr: () => stderr, ctrlC: () => run.child.kill('SIGINT') };
}

it('one Ctrl-C, arriving twice as under npm run: the messages in flight finish and are recorded', async () => {
  inbox.holdAfter = 3;
  const run = send('ctrl-c', '--connections', '2', '--json');
  await waitFor(() => expect(inbox.held).toBe(2));
  run.ctrlC();
  run.ctrlC(); // npm passes the terminal's SIGINT on: the same press, milliseconds later
  await waitFor(() => expect(run.stderr()).toContain('Stopping: no new address is taken'));
  inbox.release();
  const { code, stdout, stderr } = await run.done;
  expect(code).toBe(130);
  expect(stderr).toContain('Stopped by Ctrl-C. Run the same command again to continue');
  expect(stderr).not.toContain('Stopped at once');
  expect(inbox.accepted).toHaveLength(5);
  expect(await states('ctrl-c')).toEqual({ sent: 5, pending: everyone - 5 });
  expect(JSON.parse(stdout)).toMatchObject({ sentNow: 5, uncertain: 0, leftToSend: everyone - 5 });
});

it('a second Ctrl-C stops at once, leaving the messages in flight uncertain', async () => {
  inbox.holdAfter = 3;
  const run = send('twice', '--connections', '2');
  await waitFor(() => expect(inbox.held).toBe(2));
  run.ctrlC();
  await waitFor(() => expect(run.stderr()).toContain('Stopping: no new address is taken'));
  await delay(SAME_PRESS_MS + 100); // a person pressing again
  run.ctrlC();
  const { code, stderr } = await run.done;
  expect(code).toBe(130);
  expect(stderr).toContain('Stopped at once: the messages with the SMTP server are left uncertain');
  expect(await states('twice')).toEqual({ sent: 3, sending: 2, pending: everyone - 5 });
});

it.each([
  ['Ctrl-C', 'SIGINT'],
  ['kill -9', 'SIGKILL'],
] as const)('an address waiting after a 4xx is left to send after %s, not uncertain', async (_, signal) => {
  let refused = 0;
  inbox.answerRcpt = () => {
    refused += 1;
    return { code: 451, message: 'Try again later' };
  };
  const campaign = `backoff-${signal}`;
  const run = send(campaign, '--connections', '1', '--backoff', '600000');
  await waitFor(() => expect(refused).toBe(1));
  const tried = `select state from private.notify_journal where campaign = $1 and attempts > 0`;
  await waitFor(async () => expect((await db.owner.query(tried, [campaign])).rows).toEqual([{ state: 'pending' }]));
  run.child.kill(signal);
  const { code } = await run.done;
  expect(code).toBe(signal === 'SIGINT' ? 130 : null);
  expect(await states(campaign)).toEqual({ pending: everyone });
});
