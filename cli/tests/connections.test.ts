/**
 * Every connection verified, no secret printed: the database behind a TLS front with a test CA's
 * certificate, SMTP servers without STARTTLS or with an unknown CA, a host that never answers,
 * URLs that do not parse. WAITLIST_NO_LOOPBACK_EXEMPTION=1 makes 127.0.0.1 count as remote.
 */
import { rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterArgs } from './notify-letter';
import { countRows, useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { seed } from './seed';
import { startInbox } from './smtp';
import { makeCertificates, tlsFront, type Certificates } from './tls';

const db = useOwnDatabase('cli_connections');
const REMOTE = { WAITLIST_NO_LOOPBACK_EXEMPTION: '1' };
const PASSWORD = 'Sec9ret9pass';
let certificates: Certificates;
let front: Awaited<ReturnType<typeof tlsFront>>;
const journalRows = () => countRows(db.owner, 'private.notify_journal');

beforeAll(async () => {
  await seed(db.owner, ['tls-1@example.com', 'tls-2@example.com']);
  certificates = makeCertificates();
  front = await tlsFront(`${db.info.host}/.s.PGSQL.${db.info.port}`, certificates);
});
afterAll(() => {
  front.close();
  rmSync(dirname(certificates.caFile), { recursive: true, force: true });
});

describe('the database connection', () => {
  const url = (host: string, query = '') => `postgresql://postgres@${host}:${front.port}/cli_connections${query}`;
  const listed = () => countRows(db.owner, 'public.waiting_list');

  it('connects with the CA the URL names, and checks the host name against the certificate', async () => {
    const good = await waitlist(['count'], {
      ...REMOTE,
      DATABASE_URL: url('127.0.0.1', `?sslrootcert=${certificates.caFile}`),
    });
    expect(good).toMatchObject({ code: 0, stdout: `${await listed()}\n` });
    const otherName = await waitlist(['count'], {
      ...REMOTE,
      DATABASE_URL: url('localhost', `?sslrootcert=${certificates.caFile}`),
    });
    expect(otherName.code).toBe(1);
    expect(otherName.stderr).toMatch(/certificate could not be verified.*localhost/);
  });

  it.each(['disable', 'no-verify'])('never connects with sslmode=%s to a remote host', async (mode) => {
    const plain = await waitlist(['count'], { ...REMOTE, DATABASE_URL: url('127.0.0.1', `?sslmode=${mode}`) });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain(`asks for sslmode=${mode} to a server that is not on this machine (127.0.0.1)`);
  });

  // The environment of the reproduction: the server's CA trusted by Node, or verification off.
  const trusting = (): Record<string, string>[] => [
    { NODE_EXTRA_CA_CERTS: certificates.caFile },
    { NODE_TLS_REJECT_UNAUTHORIZED: '0' },
  ];
  const withPassword = (query: string) => url('127.0.0.1', query).replace('//postgres@', `//postgres:${PASSWORD}@`);

  // sslmode=require with libpq's meaning (uselibpqcompat) would verify nothing: the CA is kept all the same.
  it.each(['no parameter', 'sslmode=require', 'sslmode=require&uselibpqcompat=true'])(
    "%s: refuses a certificate not from Supabase's CA, despite NODE_EXTRA_CA_CERTS or NODE_TLS_REJECT_UNAUTHORIZED=0",
    async (query) => {
      for (const env of trusting()) {
        const run = await waitlist(['count'], {
          ...REMOTE,
          ...env,
          DATABASE_URL: withPassword(query === 'no parameter' ? '' : `?${query}`),
        });
        expect({ code: run.code, stdout: run.stdout }, run.stderr).toEqual({ code: 1, stdout: '' });
        expect(run.stderr).toContain("The database server's certificate could not be verified");
        expect(run.stderr).toContain('sslrootcert');
        expect(run.stderr).not.toContain(PASSWORD);
      }
    },
  );

  it("uses Node's CAs, NODE_EXTRA_CA_CERTS included, only where the URL says sslrootcert=system", async () => {
    const env = { ...REMOTE, NODE_EXTRA_CA_CERTS: certificates.caFile };
    const run = await waitlist(['count'], { ...env, DATABASE_URL: withPassword('?sslrootcert=system') });
    expect(run).toMatchObject({ code: 0, stdout: `${await listed()}\n` });
    expect(run.stderr).not.toContain(PASSWORD);
  });

  it.each([
    ['sslnegotiation', 'sslnegotiation=direct'],
    ['sslcert', () => `sslcert=${join(dirname(certificates.caFile), 'server.crt')}&sslkey=x`],
    ['sslkey', () => `sslkey=${join(dirname(certificates.caFile), 'server.key')}`],
    ['ssl', 'ssl=true'],
    ['application_name', 'application_name=x'],
  ])(
    'refuses the parameter %s (sslcert, sslnegotiation… would replace the pinned CA), naming it, not the password',
    async (name, query) => {
      const parameters = typeof query === 'string' ? query : query();
      const env = { ...REMOTE, NODE_EXTRA_CA_CERTS: certificates.caFile, NODE_TLS_REJECT_UNAUTHORIZED: '0' };
      const run = await waitlist(['count'], { ...env, DATABASE_URL: withPassword(`?${parameters}`) });
      expect({ code: run.code, stdout: run.stdout }, run.stderr).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toContain(`DATABASE_URL has "${name}", which the commands do not take`);
      expect(run.stderr).not.toContain(PASSWORD);
    },
  );

  it('gives up on a host that accepts and never answers, within seconds, saying so', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const started = Date.now();
    const { code, stderr } = await waitlist(['count'], {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/x`,
    });
    silent.close();
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(code).toBe(1);
    expect(stderr).toContain('The database did not answer within 10 s');
  });
});

describe('the SMTP connection', () => {
  it('never sends the password to a server that offers no STARTTLS, and marks nothing', async () => {
    const inbox = await startInbox({ allowInsecureAuth: true });
    const { code, stderr } = await waitlist(letterArgs('no-starttls'), {
      ...REMOTE,
      SMTP_URL: inbox.url.replace('//', '//owner:SMTP-pass-123@'),
    });
    await inbox.close();
    expect(code).toBe(1);
    expect(stderr).toContain('offers no TLS (STARTTLS)');
    expect(inbox.passwords).toEqual([]);
    expect(await journalRows()).toBe(0);
  });

  it('stops before the first message when the certificate cannot be verified: nothing sent or marked', async () => {
    const inbox = await startInbox({ secure: true, key: certificates.key, cert: certificates.cert });
    const { code, stderr } = await waitlist(letterArgs('self-signed'), { ...REMOTE, SMTP_URL: inbox.url });
    await inbox.close();
    expect(code).toBe(1);
    expect(stderr).toContain('its certificate could not be verified');
    expect(stderr).toContain('Nothing was sent.');
    expect(inbox.accepted).toEqual([]);
    expect(await journalRows()).toBe(0);
  });
});

describe('URLs holding passwords', () => {
  it.each([
    ['SMTP_URL', 'smtp://owner:Sec#ret9pass@smtp.example.com:587', 'notify'],
    ['SMTP_URL', 'smtp://owner:Secret9pass@smtp.example.com:99999', 'notify'],
    ['DATABASE_URL', 'postgresql://postgres.ref:Sec#ret9pass@pooler.example.com:5432/postgres', 'count'],
  ])('%s %s: a message that says how to fix it, without the password', async (name, value, command) => {
    const args = command === 'notify' ? letterArgs('bad-url') : ['count'];
    const { code, stdout, stderr } = await waitlist(args, { [name]: value });
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain('percent-encoded: # as %23');
    expect(stderr).not.toMatch(/Sec#?ret9pass|DeprecationWarning/);
  });

  it.each([
    ['postgres:Sec9ret9pass@db.example.com:5432/postgres', 'the "//" before the user name is missing'],
    ['postgresql://postgres:12?Sec9ret9pass@db.example.com:5432/postgres', 'an "@" after its "?"'],
    ['postgresql://postgres:Sec9ret9pass@db.example.com:5432/', 'one database'],
    ['postgresql://postgres:Sec9ret9pass@db.example.com:5432/postgres?sslmode=bogus', 'sslmode must be one of'],
    ['postgresql:///postgres?port=5432', 'must name a user, a host'],
  ])('DATABASE_URL %s: refused before any connection, without the password', async (value, reason) => {
    const { code, stdout, stderr } = await waitlist(['count'], { DATABASE_URL: value });
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(reason);
    expect(stderr).not.toMatch(/Sec9ret9pass|ec9retPass|db\.example\.com/);
  });
});
