/**
 * TLS on nginx (deploy/nginx/tls.conf, Mozilla's intermediate profile, and the servers of
 * coming-soon.conf on a loopback port, with a throwaway self-signed certificate): the configured
 * name only, TLS 1.2 and 1.3 only, forward-secret AEAD suites only, no session tickets.
 */
import { request } from 'node:https';
import { connect, type ConnectionOptions } from 'node:tls';
import { expect, test } from '@playwright/test';
import { NGINX_SERVER_NAME, NGINX_TLS_PORT } from './ports';

const server = { host: '127.0.0.1', port: NGINX_TLS_PORT, rejectUnauthorized: false };
const named = { ...server, servername: NGINX_SERVER_NAME };

type Handshake = { protocol?: string | null; cipher?: string; certificate?: string; error?: string };

/** A fatal alert the server sent, by its name (OpenSSL versions prefix it differently). */
const alert = (name: string) => ({ error: expect.stringMatching(new RegExp(`_${name}$`)) });

/** One TLS handshake: what was agreed, or the error code (a server's alert names its reason). */
function handshake(options: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect(options, () => {
      const certificate = String(socket.getPeerCertificate().subject?.CN);
      resolve({ protocol: socket.getProtocol(), cipher: socket.getCipher().name, certificate });
      socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
  });
}

/** GET / over TLS for the configured name, sending `host`: status and HSTS, or the error code. */
function get(host: string): Promise<{ status?: number; hsts?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ ...named, path: '/', headers: { host } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode, hsts: response.headers['strict-transport-security'] });
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
    req.end();
  });
}

test('the configured name gets the site over TLS 1.3, or TLS 1.2 with a forward-secret AEAD suite', async () => {
  expect(await handshake(named)).toMatchObject({ protocol: 'TLSv1.3', certificate: NGINX_SERVER_NAME });
  expect(await handshake({ ...named, maxVersion: 'TLSv1.2' })).toMatchObject({
    protocol: 'TLSv1.2',
    cipher: expect.stringMatching(/^ECDHE-RSA-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/),
  });
  expect(await get(NGINX_SERVER_NAME)).toEqual({ status: 200, hsts: 'max-age=63072000' });
});

test('an unknown server name, or none, is refused in the handshake, before any certificate', async () => {
  expect(await handshake({ ...server, servername: 'evil.example' })).toEqual(alert('UNRECOGNIZED_NAME'));
  expect(await handshake(server)).toEqual(alert('UNRECOGNIZED_NAME'));
});

test('another host name after a handshake for the configured one gets no answer', async () => {
  expect(await get('evil.example')).toEqual({ error: 'ECONNRESET' });
});

test('TLS 1.1 is refused by the server', async () => {
  // The client offers TLS 1.1 alone (its own defaults would not): the server's alert says why.
  const tls11 = { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' } as const;
  expect(await handshake({ ...named, ...tls11 })).toEqual(alert('ALERT_PROTOCOL_VERSION'));
});

test('CBC, SHA-1 and non-forward-secret suites are refused by the server', async () => {
  // CBC with a SHA-1 MAC; CBC with SHA-256; RSA key exchange (no forward secrecy).
  for (const suite of ['ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384', 'AES128-GCM-SHA256']) {
    const offer = { maxVersion: 'TLSv1.2', ciphers: `${suite}:@SECLEVEL=0` } as const;
    expect(await handshake({ ...named, ...offer }), suite).toEqual(alert('ALERT_HANDSHAKE_FAILURE'));
  }
});

/** A connection for the configured name: its session, and the ticket the server sent for it, if any. */
function sessionOf(options: ConnectionOptions): Promise<{ ticket?: Buffer; session?: Buffer; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ ...named, ...options }, () => {
      // TLS 1.3 sends its tickets after the handshake: an HTTP exchange makes sure one comes.
      socket.end(`HEAD / HTTP/1.1\r\nHost: ${NGINX_SERVER_NAME}\r\nConnection: close\r\n\r\n`);
    });
    const settle = (session?: Buffer) =>
      resolve({ ticket: socket.getTLSTicket(), session, reused: socket.isSessionReused() });
    socket.once('session', settle);
    socket.on('data', () => {});
    socket.on('end', () => settle());
    socket.on('error', reject);
  });
}

test("no session tickets: resumption only from the server's session cache", async () => {
  // TLS 1.2: no ticket at all, and a second connection resumes by session ID.
  const tls12 = await sessionOf({ maxVersion: 'TLSv1.2' });
  expect(tls12.ticket, 'a TLS 1.2 session ticket').toBeUndefined();
  expect((await sessionOf({ maxVersion: 'TLSv1.2', session: tls12.session })).reused).toBe(true);
  // TLS 1.3 always sends NewSessionTicket; without tickets it is a 32-byte session ID into the
  // cache, where a sealed ticket carries the whole session state (240 bytes, OpenSSL 3.0).
  const tls13 = await sessionOf({ minVersion: 'TLSv1.3' });
  expect(tls13.ticket).toHaveLength(32);
});
