/**
 * A TCP proxy in front of the test server that cuts one connection at a chosen query, as a network
 * that fails would: the CLI talks to it through DATABASE_URL. It reads the client's messages
 * (PostgreSQL's protocol: a startup message, then a type byte and a length each) for the text of
 * every query, simple (Q) or prepared (P). At the first one `cutAt` picks, it either drops the
 * connection before the server sees it (`forward: false`), or forwards it (a prepared one with its
 * Bind, Execute and Sync) and drops the connection as the server's reply arrives, relaying none of
 * it (`forward: true`: the server has done it, the client never hears so). Connections made after
 * that pass untouched, unless `refuseAfterCut` (the database unreachable from then on).
 */
import { createConnection, createServer, type Socket } from 'node:net';
import type { ConnectionInfo } from '../../supabase/harness/database';

export type CutAt = {
  /** Picks the query to cut at, given its text and the texts sent before it on that connection. */
  cutAt: (query: string, before: string[]) => boolean;
  forward: boolean;
  refuseAfterCut?: boolean;
};

export type Proxy = { url: string; cut: () => boolean; close: () => Promise<void> };

/** The text of a Q or P message's query; null for any other message. */
function queryOf(type: string, body: Buffer) {
  if (type === 'Q') return body.toString('utf8', 0, body.indexOf(0));
  if (type !== 'P') return null;
  const start = body.indexOf(0) + 1; // after the statement's name
  return body.toString('utf8', start, body.indexOf(0, start));
}

export async function cuttingProxy(info: ConnectionInfo, how: CutAt): Promise<Proxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (cut && how.refuseAfterCut) {
      client.destroy();
      return;
    }
    const upstream = createConnection(`${info.host}/.s.PGSQL.${info.port}`);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    let cutting = false;
    // A prepared query (P) runs only once its Bind, Execute and Sync follow: those go too, then nothing.
    let toSync = false;
    let started = false;
    let pending = Buffer.alloc(0);
    const queries: string[] = [];
    upstream.on('data', (chunk: Buffer) => (cutting ? drop() : client.write(chunk)));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk: Buffer) => {
      if (cutting && !toSync) return; // the connection is as good as gone
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const head = started ? 1 : 0; // the startup message has no type byte
        if (pending.length < head + 4) return;
        const end = head + pending.readInt32BE(head);
        if (pending.length < end) return;
        const message = pending.subarray(0, end);
        pending = pending.subarray(end);
        if (cutting) {
          upstream.write(message);
          toSync = String.fromCharCode(message[0]) !== 'S';
          if (!toSync) return;
          continue;
        }
        const query = started ? queryOf(String.fromCharCode(message[0]), message.subarray(5)) : null;
        started = true;
        if (query !== null && !cut && how.cutAt(query, queries)) {
          cut = true;
          if (!how.forward) return drop();
          cutting = true;
          toSync = String.fromCharCode(message[0]) === 'P';
          upstream.write(message);
          if (!toSync) return;
          continue;
        }
        if (query !== null) queries.push(query);
        upstream.write(message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/${info.database}`,
    cut: () => cut,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
