/**
 * The shipped deploy/nginx/coming-soon.conf, made to run on this machine: its directives as they
 * ship, with only what a deployment edits replaced, directive by directive (one per line, as the
 * file is written). The listen ports become loopback test ports (the IPv6 listens are left out),
 * server_name the test name, the certificate the test's, root the e2e build, and the files it
 * includes from /etc/nginx/coming-soon/ come from deploy/nginx/ (headers.conf: the build's).
 * A directive that still names a deployment path or name fails here, with the line.
 */
import { join } from 'node:path';

export type TestPlaces = {
  /** Ports 80 and 443 of the shipped file. */
  ports: { 80: number; 443: number };
  serverName: string;
  certificate: string;
  certificateKey: string;
  root: string;
  /** The build's header lines, installed as /etc/nginx/coming-soon/headers.conf in production. */
  headers: string;
  /** The folder of the shipped site.conf and tls.conf. */
  shipped: string;
};

const INSTALLED = '/etc/nginx/coming-soon/';
/** What only a deployment names: a test config holding one would not be the test's. */
const DEPLOYMENT = /example\.com|\/etc\/|\/var\//;

/** A path as one nginx argument, whatever it holds (spaces, quotes, semicolons). */
export const quoted = (path: string) => JSON.stringify(path);

/** One directive of the shipped file for the test: rewritten, kept, or left out (undefined). */
function forTest(directive: string, at: TestPlaces): string | undefined {
  const [name, first = '', ...rest] = directive.replace(/;$/, '').split(/\s+/);
  switch (name) {
    case 'listen': {
      if (first.startsWith('[::]:')) return undefined;
      const port = at.ports[Number(first) as 80 | 443];
      if (port === undefined) throw new Error(`no test port for "${directive}"`);
      return `listen ${['127.0.0.1:' + port, ...rest].join(' ')};`;
    }
    case 'server_name':
      return `server_name ${at.serverName};`;
    case 'ssl_certificate':
      return `ssl_certificate ${quoted(at.certificate)};`;
    case 'ssl_certificate_key':
      return `ssl_certificate_key ${quoted(at.certificateKey)};`;
    case 'root':
      return `root ${quoted(at.root)};`;
    case 'include': {
      if (!first.startsWith(INSTALLED)) throw new Error(`an include outside ${INSTALLED}: "${directive}"`);
      const file = first.slice(INSTALLED.length);
      return `include ${quoted(file === 'headers.conf' ? at.headers : join(at.shipped, file))};`;
    }
    default:
      if (DEPLOYMENT.test(directive)) {
        throw new Error(`a deployment's name or path the test cannot replace: "${directive}"`);
      }
      return directive;
  }
}

/** The shipped file's text for the test's http {} block, comments left out. */
export function testServers(shippedConf: string, at: TestPlaces): string {
  return shippedConf
    .split('\n')
    .flatMap((line, index) => {
      const directive = line.replace(/#.*/, '').trim();
      if (!directive) return [];
      try {
        return forTest(directive, at) ?? [];
      } catch (error) {
        throw new Error(`deploy/nginx/coming-soon.conf:${index + 1}: ${(error as Error).message}`, { cause: error });
      }
    })
    .join('\n');
}
