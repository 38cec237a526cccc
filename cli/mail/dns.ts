/** The DNS lookups of notify and domain: the system's resolvers or --dns-server, each query bounded. */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';

/** A record's values, or 'none' when the name or the record does not exist; any other failure rejects. */
type Query = (name: string) => Promise<string[] | 'none'>;
/** servers: which resolver answered, for the report ("127.0.0.1:53"). */
export type Lookup = { servers: string; txt: Query; mx: Query; addresses: Query; cancel(): void };

/** commander's parser for --dns-server: `127.0.0.1`, `127.0.0.1:5353` or `[::1]:5353`. */
export function dnsServer(value: string) {
  const bare = value.replace(/^\[(.*)\](?::\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
  if (!isIP(bare)) {
    throw new InvalidArgumentError(`not an IP address (with an optional :port): ${JSON.stringify(value)}`);
  }
  return value;
}

/** No such name or no such record: the record is missing. Anything else: the lookup failed. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export function lookup(server: string | undefined, timeout: number): Lookup {
  const resolver = new Resolver({ timeout, tries: 2 });
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
    addresses: async (name) => {
      const v4 = await absentOr(resolver.resolve4(name));
      return v4 === 'none' ? absentOr(resolver.resolve6(name)) : v4;
    },
    cancel: () => resolver.cancel(),
  };
}
