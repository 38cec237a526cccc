/**
 * The servers around the site on nginx (deploy/nginx/coming-soon.conf, here on loopback ports):
 * plain HTTP redirects to the configured name only, and any other host name gets no answer.
 */
import { request } from 'node:http';
import { expect, test } from '@playwright/test';
import { NGINX_HTTP_PORT, NGINX_SERVER_NAME } from './ports';

type Answer = { status?: number; location?: string; error?: string };

/** One request to the port-80 servers: status and Location, or the error code when none came. */
function get(path: string, host: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: NGINX_HTTP_PORT, path, headers: { host } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode, location: response.headers.location });
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
    req.end();
  });
}

/** nginx's 444: the connection closes with no response at all. */
const NO_ANSWER: Answer = { error: 'ECONNRESET' };

test('plain HTTP redirects to https on the configured name, with the path and query', async () => {
  expect(await get('/join?ref=mail', NGINX_SERVER_NAME)).toEqual({
    status: 301,
    location: `https://${NGINX_SERVER_NAME}/join?ref=mail`,
  });
});

test('any other host name on plain HTTP gets no answer, never a redirect to itself', async () => {
  for (const host of ['evil.example', `${NGINX_SERVER_NAME}.evil.example`, '127.0.0.1', '']) {
    expect(await get('/', host), host).toEqual(NO_ANSWER);
  }
  // A full URL in the request line names the host too, whatever the Host header says.
  expect(await get('http://evil.example/', NGINX_SERVER_NAME)).toEqual(NO_ANSWER);
});
