/**
 * A DNS server on loopback (dns2, UDP) answering TXT, MX and A from a zone the test edits; `silent`
 * names never answer.
 */
import { Resolver } from 'node:dns/promises';
import dns2 from 'dns2';

export type Zone = Map<string, { txt?: string[]; mx?: string[]; a?: string[]; silent?: boolean }>;
export type Dns = {
  /** `127.0.0.1:port`, for --dns-server. */
  server: string;
  zone: Zone;
  /** Questions asked, as "TYPE name". */
  asked: string[];
  /** dns.promises.resolve's signature, through this server (mailauth's resolver option). */
  resolve(name: string, type: string): Promise<unknown>;
  close(): Promise<void>;
};

const { Packet } = dns2;

export async function startDns(zone: Zone = new Map()): Promise<Dns> {
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const { name, type } = question;
      const entry = zone.get(name.toLowerCase());
      asked.push(`${type === Packet.TYPE.MX ? 'MX' : type === Packet.TYPE.TXT ? 'TXT' : type} ${name}`);
      if (entry?.silent) return; // a server that never answers: the asker times out
      if (!entry) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (type === Packet.TYPE.A) {
        for (const address of entry.a ?? []) {
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, address }));
        }
      } else if (type === Packet.TYPE.TXT) {
        for (const text of entry.txt ?? []) {
          // Strings of at most 255 octets each, as a DNS host splits a long DKIM key.
          const data = [...(text.match(/.{1,255}/gs) ?? [''])];
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, data }));
        }
      } else if (type === Packet.TYPE.MX) {
        (entry.mx ?? []).forEach((exchange, i) =>
          response.answers.push(
            Packet.createResourceFromQuestion(question, { ttl: 60, exchange, priority: 10 * (i + 1) }),
          ),
        );
      }
      send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const address = `127.0.0.1:${udp!.port}`;
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([address]);
  return {
    server: address,
    zone,
    asked,
    resolve: (name, type) => resolver.resolve(name, type),
    close: () => server.close(),
  };
}
