/** Ctrl-C during a send: the first asks for a clean stop, a second stops at once. */
import { EXIT, say } from '../terminal.ts';

/**
 * Under `npm run waitlist`, one press of Ctrl-C can reach this process twice: the terminal signals
 * its whole foreground process group (npm and this process), and npm passes the SIGINT it got on
 * to its child. Both arrive within milliseconds, so a SIGINT this soon after the first is the same
 * press; a second press, for a person, comes later than this.
 */
export const SAME_PRESS_MS = 200;

/** Until `release()`, SIGINT aborts the returned signal once; a second press exits at once. */
export function ctrlC(): { stopping: AbortSignal; release(): void } {
  const controller = new AbortController();
  let first = 0;
  const onSigint = () => {
    const now = Date.now();
    if (!first) {
      first = now;
      say('\nStopping: no new address is taken; the messages with the SMTP server finish and are recorded.');
      say('(Ctrl-C again stops at once: those messages are then left uncertain.)');
      controller.abort();
    } else if (now - first > SAME_PRESS_MS) {
      say('Stopped at once: the messages with the SMTP server are left uncertain; the next run names them.');
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSigint);
  return { stopping: controller.signal, release: () => void process.off('SIGINT', onSigint) };
}
