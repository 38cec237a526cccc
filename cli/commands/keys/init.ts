/** `keys init`: the list sealed under a new owner key, then, on a terminal, the stored copy proved at once. */
import { sealTheList } from '../../seal/seal-the-list.ts';
import { interactive, say, UsageError } from '../../terminal/terminal.ts';
import { check } from './check.ts';

export async function init({ keyFile }: { keyFile?: string }) {
  if (!keyFile) {
    throw new UsageError('Name a new file for your private key: keys init --key-file <file>.');
  }
  await sealTheList(keyFile);
  if (!interactive()) {
    say('Left to do: store the key, then prove the stored copy opens the list with npm run waitlist -- keys check');
    say('(health says so until a check passes).');
    return;
  }
  say('Now store the key; then give the stored copy here to check it (Ctrl-C: later, with keys check).');
  await check({});
}
