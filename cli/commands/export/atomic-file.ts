/**
 * A file that appears whole or not at all: written beside its name, flushed, renamed over it. A full disk, a lost
 * connection or a stop signal leaves the earlier file as it was, and nothing partial.
 */
import { once } from 'node:events';
import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeAtomically<T>(path: string, write: (file: WriteStream) => Promise<T>): Promise<T> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  // 0600: the list is personal data; flush: on disk before the rename makes it the file.
  const file = createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true });
  const stopped = (signal: NodeJS.Signals) => {
    file.destroy();
    rmSync(temporary, { force: true });
    forget();
    process.kill(process.pid, signal); // as if unhandled: the shell sees the signal
  };
  const forget = () => STOP_SIGNALS.forEach((signal) => process.off(signal, stopped));
  STOP_SIGNALS.forEach((signal) => process.once(signal, stopped));
  try {
    const written = await write(file);
    if (!file.closed) await once(file, 'close');
    await rename(temporary, path);
    return written;
  } catch (error) {
    file.destroy();
    await rm(temporary, { force: true });
    throw new Error(`Could not write ${path} (${(error as Error).message}); it is unchanged.`, { cause: error });
  } finally {
    forget();
  }
}

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']; // Ctrl-C, kill, a closed terminal
