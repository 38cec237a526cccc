/**
 * TLS for the connection tests: a throwaway CA and a server certificate for 127.0.0.1 (openssl),
 * and a PostgreSQL front on a loopback TCP port that answers the SSL request and passes the
 * decrypted stream on to the test database's Unix socket.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

export type Certificates = { caFile: string; key: string; cert: string };

/** A CA, and a certificate it signed for the IP address 127.0.0.1 only (no name). */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'waitlist-tls-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    path('ca.key'),
    '-out',
    path('ca.crt'),
    '-subj',
    '/CN=waitlist test CA',
    '-days',
    '2',
  );
  openssl('req', ...ec, '-keyout', path('server.key'), '-out', path('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(path('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    path('server.csr'),
    '-CA',
    path('ca.crt'),
    '-CAkey',
    path('ca.key'),
    '-CAcreateserial',
    '-out',
    path('server.crt'),
    '-days',
    '2',
    '-extfile',
    path('san.ext'),
  );
  return {
    caFile: path('ca.crt'),
    key: readFileSync(path('server.key'), 'utf8'),
    cert: readFileSync(path('server.crt'), 'utf8'),
  };
}

/** PostgreSQL's SSLRequest: length 8, code 80877103. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]);

/** A TLS-only PostgreSQL endpoint on 127.0.0.1 in front of the server listening on `socket`. */
export async function tlsFront(socket: string, certificate: Certificates) {
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    client.once('data', (first) => {
      if (!first.equals(SSL_REQUEST)) {
        client.destroy();
        return;
      }
      client.write('S');
      const secure = new tls.TLSSocket(client, { isServer: true, key: certificate.key, cert: certificate.cert });
      secure.on('error', () => undefined);
      const backend = net.connect(socket);
      backend.on('error', () => secure.destroy());
      secure.pipe(backend).pipe(secure);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
