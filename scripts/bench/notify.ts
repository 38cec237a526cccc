/**
 * npx tsx scripts/bench/notify.ts [addresses] — `waitlist notify` of 100,000 addresses (default) to a
 * loopback smtp-server that accepts and discards: messages per second and the tool's peak memory.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { listOf, MAIN, measure } from './list-setup';

const ADDRESSES = Number(process.argv[2] ?? 100_000);
const CONNECTIONS = 4;

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => {
      received += 1;
      callback();
    });
    stream.resume();
  },
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;

const text = join(tmpdir(), `waitlist-bench-${process.pid}.txt`);
writeFileSync(text, 'We launched.\n');
const { cluster, url, keyFile } = await listOf(ADDRESSES);
try {
  // The unsubscribe links are made but never followed; no resolver answers on port 9 (the domain check only warns).
  const oneClick = ['--unsubscribe-url', 'https://project.supabase.example/functions/v1/unsubscribe'];
  const args = ['--from', 'launch@product.example', '--subject', 'We launched', '--text', text, '--yes'];
  args.push(...oneClick, '--dns-server', '127.0.0.1:9', '--despite-sender-domain');
  const run = await measure(process.execPath, [MAIN, 'notify', ...args, '--connections', String(CONNECTIONS)], {
    DATABASE_URL: url,
    SMTP_URL: smtpUrl,
    WAITLIST_OWNER_KEY_FILE: keyFile,
    UNSUBSCRIBE_SECRET: randomBytes(32).toString('base64'),
    VITE_SITE_URL: 'https://site.product.example', // the body's unsubscribe link
  });
  console.log(
    `notify of ${ADDRESSES.toLocaleString('en')} addresses, ${CONNECTIONS} SMTP connections, loopback smtp-server:`,
  );
  console.log(
    `  received: ${received.toLocaleString('en')} messages in ${run.seconds.toFixed(1)} s (start-up included)`,
  );
  console.log(`  rate: ${Math.round(received / run.seconds)} messages/s, peak ${run.peakMB} MB`);
} finally {
  server.close();
  await cluster.stop();
}
