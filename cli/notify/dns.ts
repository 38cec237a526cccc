/** The sender-domain check's DNS, through the system's resolvers or --dns-server: each query bounded, all of it too. */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';

const QUERY_TIMEOUT_MS = 2_000;
export const LOOKUP_BUDGET_MS = 10_000;

/** servers: which resolver answered, for the report ("127.0.0.1:53"). */
export type Lookup = { servers: string; txt: Query; mx: Query; cancel(): void };
type Query = (name: string) => Promise<string[] | 'none'>;

/** commander's parser for --dns-server: `127.0.0.1`, `127.0.0.1:5353` or `[::1]:5353`. */
export function dnsServer(value: string): string {
  const bare = value.replace(/^\[(.*)\](?::\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
  if (!isIP(bare))
    throw new InvalidArgumentError(`not an IP address (with an optional :port): ${JSON.stringify(value)}`);
  return value;
}

/** No such name or no such record: the record is missing. Anything else: the lookup failed. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export function lookup(server: string | undefined): Lookup {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 2 });
  if (server) resolver.setServers([server]);
  const absentOr = async <T>(query: Promise<T>): Promise<T | 'none'> =>
    query.catch((error: NodeJS.ErrnoException) => {
      if (ABSENT.has(error.code ?? '')) return 'none';
      throw new Error(`${error.code ?? 'error'} from ${resolver.getServers().join(', ')}`);
    });
  return {
    servers: resolver.getServers().join(', ') || '(none configured)',
    txt: (name) => absentOr(resolver.resolveTxt(name).then((records) => records.map((parts) => parts.join('')))),
    mx: (name) => absentOr(resolver.resolveMx(name).then((records) => records.map((r) => r.exchange))),
    cancel: () => resolver.cancel(),
  };
}
