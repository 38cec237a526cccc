/**
 * A throwaway PostgreSQL server in a temp dir, reachable through a Unix socket in that dir (and,
 * when asked, on a free TCP port of 127.0.0.1, for clients such as the Supabase CLI that take only
 * a host name). Used by the db tests' global setup, supabase/bench/db.ts and scripts/db-push-check.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Supabase's own superuser; migrations run as the non-superuser `postgres`, as on Supabase. */
export const SUPERUSER = 'supabase_admin';
const MIN_MAJOR = 15;
const SOCKET_PORT = 5432; // names the socket file when there is no TCP listener

/** The database the waiting list lives in; pg_cron runs its jobs there. */
export const DATABASE = 'waitlist';

export type Cluster = {
  socketDir: string;
  port: number;
  locale: string;
  /** pg_cron is installed and preloaded (cron.database_name = DATABASE). */
  cron: boolean;
  binDir: string;
  /** The server's log (gone after stop). */
  logFile: string;
  /** The data directory (gone after stop). */
  dataDir: string;
  /**
   * Stops the server (`immediate`: as a crash does; `fast`: cleanly, with a shutdown checkpoint)
   * and starts it again.
   */
  restart(mode: 'immediate' | 'fast', between?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
};

export function majorVersion(binDir: string): number {
  const out = execFileSync(join(binDir, 'initdb'), ['--version'], { encoding: 'utf8' });
  return Number(/(\d+)(?:\.\d+)?/.exec(out)?.[1] ?? 0);
}

/** initdb and pg_ctl from PATH, else the newest /usr/lib/postgresql/<major>/bin. */
export function findServerBinaries(): string {
  const hasTools = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  const onPath = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && hasTools(dir));
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => `/usr/lib/postgresql/${major}/bin`)
        .filter(hasTools)
    : [];
  // Resolve symlinks such as /usr/local/bin/initdb so `postgres` is found next to pg_ctl.
  const candidates = [...onPath.map((dir) => realpathSync(join(dir, 'initdb')).replace(/\/initdb$/, '')), ...debian];
  const found = candidates.find((dir) => majorVersion(dir) >= MIN_MAJOR);
  if (!found) {
    throw new Error(
      `PostgreSQL ${MIN_MAJOR}+ server binaries (initdb, pg_ctl) were not found on PATH or under ` +
        '/usr/lib/postgresql/*/bin. Install them first: apt-get install -y postgresql',
    );
  }
  return found;
}

/** Whether the server has the loadable library `name` (an extension or a module such as auto_explain). */
export const hasLibrary = (binDir: string, name: string) => existsSync(join(binDir, '..', 'lib', `${name}.so`));

/** PostgreSQL refuses to run as root: as root, run the server tools as the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      "Running as root, but there is no 'postgres' user to run the server as " +
        '(apt-get install -y postgresql creates it).',
    );
  }
}

/** A TCP port nobody listens on right now, chosen by the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Supabase's databases use C.UTF-8, under which lower() folds non-ASCII letters too. */
function utf8Locale(): string {
  try {
    const locales = execFileSync('locale', ['-a'], { encoding: 'utf8' }).split('\n');
    return locales.some((name) => /^c\.utf-?8$/i.test(name)) ? 'C.UTF-8' : 'C';
  } catch {
    return 'C';
  }
}

/**
 * initdb + pg_ctl start. `durable: false` (tests) turns fsync off; the benchmark keeps the
 * defaults so its figures mean something. `tcp: true` also listens on 127.0.0.1.
 */
export async function startCluster({
  durable = false,
  tcp = false,
  settings: extra = [] as string[],
} = {}): Promise<Cluster> {
  const binDir = findServerBinaries();
  const owner = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'waitlist-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const tool = (name: string, args: string[]) =>
    owner ? run('runuser', ['-u', 'postgres', '--', join(binDir, name), ...args]) : run(join(binDir, name), args);

  const stop = async () => {
    await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };

  const locale = utf8Locale();
  const port = tcp ? await freePort() : SOCKET_PORT;
  const settings = [`-c listen_addresses='${tcp ? '127.0.0.1' : ''}'`, `-k ${dir}`, `-p ${port}`];
  if (!durable) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
  // pg_cron, as on Supabase (Debian: apt-get install -y postgresql-<major>-cron). Its jobs run in
  // background workers: the server has no TCP listener for pg_cron to connect to.
  const cron = hasLibrary(binDir, 'pg_cron');
  // auto_explain and pgaudit, preloaded as on Supabase, each logging nothing until a setting turns it
  // on (what cli/database/logging.ts reads; pgaudit: apt-get install -y postgresql-<major>-pgaudit).
  const preload = ['pg_cron', 'auto_explain', 'pgaudit'].filter((name) => hasLibrary(binDir, name));
  if (preload.length) settings.push(`-c shared_preload_libraries=${preload.join(',')}`);
  if (cron) {
    settings.push(
      `-c cron.database_name=${DATABASE}`,
      '-c cron.use_background_workers=on',
      '-c cron.max_running_jobs=4',
    );
  }
  settings.push(...extra.map((setting) => `-c ${setting}`));
  const start = () => tool('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', settings.join(' '), 'start']);
  try {
    await tool('initdb', [
      '-D',
      data,
      '-U',
      SUPERUSER,
      '-A',
      'trust',
      '-E',
      'UTF8',
      `--locale=${locale}`,
      '--no-sync',
      '--no-instructions',
    ]);
    await start();
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
    await stop();
    throw new Error(`Could not start the throwaway PostgreSQL: ${String(error)}\n${serverLog}`, { cause: error });
  }
  const restart = async (mode: 'immediate' | 'fast', between?: () => Promise<void>) => {
    await tool('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    await between?.();
    await start();
  };
  return { socketDir: dir, port, locale, cron, binDir, logFile: log, dataDir: data, restart, stop };
}
