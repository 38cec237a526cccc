/**
 * setup's database steps: the migrations, the unsubscribe signing key, the allowed origins, the owner key and the login
 * roles, each kept in the project so that another machine finds them again.
 */
import { randomBytes } from 'node:crypto';
import { cliTarget } from '../../connect/tools.ts';
import { addOrigin, allowedOrigins, removeOrigin } from '../../list/guard.ts';
import { checkMigrations } from '../../database/migrations.ts';
import { holders } from '../../seal/open.ts';
import { sealTheList } from '../../seal/seal-the-list.ts';
import { say } from '../../terminal/terminal.ts';
import { envFileValues as saved, mergeEnvFile } from '../../connect/env-file.ts';
import { keep, kept } from '../../database/kept.ts';
import { keptPassword, roleUrl, setRolePassword, type Role } from '../../database/roles.ts';
import { type Step, withDatabaseNeeded } from './step.ts';

type Needs = { keyFile: string; rotate?: boolean; folder: string; origins(): string[]; held(): Promise<boolean> };
type SupabaseCli = (args: string[], env?: Record<string, string>) => Promise<unknown>;

/** A login role's step: its password made once and kept in the project, its URL in .env.local as `name`. */
const roleStep = (name: 'UNSUBSCRIBE_DB_URL' | 'HEALTH_DATABASE_URL', role: Role): Step => [
  `the role ${role}: its password made once (sent only as a SCRAM verifier, kept in the project); ` +
    `its URL in .env.local (${name})`,
  async () => {
    const password = await withDatabaseNeeded((client) => kept(client, role));
    return Boolean(password) && saved()[name] === roleUrl(role, password!);
  },
  async () => {
    // .env.local's, from before passwords were kept in the project, is adopted: its copies elsewhere stay valid.
    const fromFile = URL.parse(saved()[name] ?? '')?.password;
    const password = await withDatabaseNeeded(
      async (client) => (await keptPassword(client, role, fromFile)) ?? setRolePassword(client, role),
    );
    mergeEnvFile({ [name]: roleUrl(role, password) });
  },
];

/** Why setup stops rather than make a new signing key: the function's own would void every link sent with it. */
const SECRET_NOT_KEPT =
  'The unsubscribe function holds an UNSUBSCRIBE_SECRET the project does not keep (set by hand): ' +
  'put it in .env.local as UNSUBSCRIBE_SECRET and run setup again (links sent keep working), ' +
  'or rotate it with --rotate-unsubscribe-key.';

export function databaseSteps({ keyFile, rotate, folder, origins, held }: Needs, cli: SupabaseCli): Step[] {
  return [
    [
      'the migrations (db push)',
      async () => {
        const found = await withDatabaseNeeded(checkMigrations);
        // On the old chain, or ahead of this clone, db push would harm: the finding says what to do instead.
        if (found.outcome !== 'ok' && !found.says.startsWith('Not applied')) {
          throw new Error(`${found.says} ${found.fix}`);
        }
        return found.outcome === 'ok';
      },
      async () => {
        const { url, env } = cliTarget(folder);
        await cli(['db', 'push', `--remote=${url}`], env);
      },
    ],
    [
      rotate
        ? 'the unsubscribe signing key: a new one (every link already sent stops working)'
        : "the unsubscribe signing key: made once, kept in the project, copied to .env.local (notify's)",
      async () => {
        const secret = await withDatabaseNeeded((client) => kept(client, 'unsubscribe_secret'));
        return !rotate && Boolean(secret) && saved().UNSUBSCRIBE_SECRET === secret;
      },
      () =>
        withDatabaseNeeded(async (client) => {
          let old: string | undefined; // none when rotating: a new one
          if (!rotate) {
            // From before the key was kept in the project: .env.local's, so the links sent with it still work.
            old = (await kept(client, 'unsubscribe_secret')) ?? saved().UNSUBSCRIBE_SECRET;
            if (!old && (await held())) throw new Error(SECRET_NOT_KEPT);
          }
          const secret = old ?? randomBytes(32).toString('base64url');
          await keep(client, 'unsubscribe_secret', secret);
          mergeEnvFile({ UNSUBSCRIBE_SECRET: secret });
        }),
    ],
    [
      "the allowed origins: exactly the site's",
      async () => {
        const { allowed, before } = await withDatabaseNeeded(async (client) => ({
          allowed: await allowedOrigins(client),
          before: await kept(client, 'site_origins'),
        }));
        const gone = JSON.parse(before ?? '[]').filter((origin: string) => !origins().includes(origin));
        return origins().every((o) => allowed.includes(o)) && !gone.some((o: string) => allowed.includes(o));
      },
      () =>
        withDatabaseNeeded(async (client) => {
          const before: string[] = JSON.parse((await kept(client, 'site_origins')) ?? '[]');
          for (const origin of origins()) await addOrigin(client, origin);
          for (const origin of before.filter((o) => !origins().includes(o))) {
            if (await removeOrigin(client, origin)) {
              say(`  Removed ${origin}, which setup had allowed: it no longer serves the site.`);
            }
          }
          await keep(client, 'site_origins', JSON.stringify(origins()));
        }),
    ],
    [
      `the owner key (keys init --key-file ${keyFile})`,
      async () => (await withDatabaseNeeded(holders)).length > 0,
      () => sealTheList(keyFile),
    ],
    roleStep('UNSUBSCRIBE_DB_URL', 'waitlist_unsubscribe'),
    roleStep('HEALTH_DATABASE_URL', 'waitlist_health'),
  ];
}
