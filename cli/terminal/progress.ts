/** A progress bar with rate and time left on a terminal (stderr); plain periodic lines otherwise. */
import { createRequire } from 'node:module';
import { say } from './terminal.ts';

export type Progress = { advance(by?: number): void; stop(): void };

export function progress(label: string, total: number, every = 10_000): Progress {
  if (process.stderr.isTTY) {
    // Loaded on a terminal only: a script reading stderr gets plain lines.
    const { SingleBar } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
    const format = `${label} [{bar}] {value}/{total} | {rate}/s | {eta_formatted} left`;
    const bar = new SingleBar({ format, stream: process.stderr, etaBuffer: 200 });
    const started = Date.now();
    bar.start(total, 0, { rate: 0 });
    let done = 0;
    const rate = () => Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
    const advance = (by = 1) => {
      done += by;
      bar.update(done, { rate: rate() });
    };
    return { advance, stop: () => bar.stop() };
  }
  let done = 0;
  let reported = 0;
  const advance = (by = 1) => {
    done += by;
    if (done - reported >= every) {
      reported = done;
      say(`${label}: ${reported} of ${total}`);
    }
  };
  return { advance, stop() {} };
}
