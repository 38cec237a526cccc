/**
 * A visitor's whole path, proven in a transaction rolled back: a fresh address inserted as `anon` with
 * PostgREST's headers, then a test key wrapped to every holder's key (a signup wraps only for its hour's first).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ok, problem, skipped, type Finding } from '../../findings/finding.ts';

/** The network the proof counts against: TEST-NET-1, which no visitor connects from. */
const PROOF_IP = '192.0.2.1';

type DatabaseError = { code?: string; message?: string; where?: string; detail?: string };

const REAPPLY = 'An object of the migrations was changed or dropped by hand: push them again (supabase/README.md).';
/** The step that refused, matched on `<SQLSTATE> <where PL/pgSQL raised it>`, and its fix. */
const STEPS: [pattern: RegExp, step: string, fix?: string][] = [
  [
    /^(55P03|57014|40P01|40001|53|08)/,
    'a busy database (a wait ran out)',
    'Run health again; if it persists, look at the load in the dashboard.',
  ],
  [/^PGRST/, 'the guard', 'See the origins and limits findings.'],
  [/limit_signups|count_signup|counted_signups|network_duplicates|signup_secret/, 'the counters'],
  [/hour_key|seal_with|seal_signup|address_hash/, 'sealing'],
  [/./, 'the signup'],
];

function failedStep({ code, where }: DatabaseError) {
  const [, step, fix] = STEPS.find(([pattern]) => pattern.test(`${code} ${where ?? ''}`))!;
  return { step, fix: fix ?? REAPPLY };
}

/** The guard's own refusal carries PostgREST's body as its message and the status as its detail. */
function said(error: DatabaseError) {
  if (error.code !== 'PGRST') return `${error.code ?? ''} ${error.message ?? String(error)}`.trim();
  const body = JSON.parse(error.message ?? '{}') as { code?: string; message?: string };
  const { status } = JSON.parse(error.detail ?? '{}') as { status?: number };
  return `${status} ${body.code} ${JSON.stringify(body.message)}`;
}

type Proof = { counted: boolean; sealedAsTyped: boolean | null; ownerKey: boolean };

async function signUp(db: pg.Client, site: string | undefined): Promise<Proof> {
  const headers = { 'cf-connecting-ip': PROOF_IP, prefer: 'return=minimal', ...(site ? { origin: site } : {}) };
  // What PostgREST applies for a request: anon's own statement_timeout (3 s on Supabase), which a
  // role setting gives only at login; and no lock held longer than a lost laptop's 5 s.
  await db.query(
    `select set_config('statement_timeout',
                       coalesce((select split_part(c, '=', 2) from pg_roles r, unnest(r.rolconfig) c
                                 where r.rolname = 'anon' and c like 'statement\\_timeout=%'),
                                current_setting('statement_timeout')),
                       true),
            set_config('idle_in_transaction_session_timeout', '5s', true),
            set_config('request.headers', $1, true), set_config('request.method', 'POST', true),
            set_config('request.path', '/waiting_list', true),
            set_config('request.jwt.claims', '{"role":"anon"}', true),
            set_config('role', 'anon', true)`,
    [JSON.stringify(headers)],
  );
  await db.query('insert into public.waiting_list (email) values ($1)', [`health-check-${randomUUID()}@example.com`]);
  await db.query('reset role');
  const { rows } = await db.query<Proof>(
    `select exists (select from private.signup_counts c where c.network = private.network_hash($1)) as counted,
            case when exists (select from private.key_holders)
                 then a.seal is null or w.email is not null end as "sealedAsTyped",
            (select count(*) > 0 and count(*) = count(extensions.pgp_pub_encrypt_bytea(
                                                        extensions.gen_random_bytes(32), o.public_key))
             from private.key_holders o) as "ownerKey"
     from public.waiting_list w left join private.signup_addresses a using (id)
     where w.id = currval(pg_get_serial_sequence('public.waiting_list', 'id'))`,
    [`${PROOF_IP}/32`],
  );
  return rows[0];
}

export async function checkSignup(db: pg.Client, site: string | undefined): Promise<Finding> {
  const { rows } = await db.query<{ may: boolean }>(`select pg_has_role('anon', 'member') as may`);
  if (!rows[0].may) {
    return skipped(
      'signup',
      "DATABASE_URL's role cannot act as anon (the daily check's role may only read): the real signup, rolled " +
        "back, that proves sealing, the owner key and the counters was not tried. Run health with the owner's " +
        'DATABASE_URL.',
    );
  }
  await db.query('begin read write');
  try {
    const proof = await signUp(db, site);
    const faults = [
      !proof.counted && 'the counters: the signup was not counted (the trigger limit_signups is missing or disabled)',
      proof.sealedAsTyped && 'sealing: the signup was stored as typed although the owner key is installed',
    ].filter(Boolean);
    if (faults.length) {
      return problem('signup', `A signup as a visitor went through, but ${faults.join('; ')}.`, REAPPLY);
    }
    const sealed = proof.ownerKey
      ? ", sealed and counted, and every holder's key wraps a test key"
      : ' and counted (not sealed: no owner key yet)';
    return ok('signup', `A signup as a visitor was stored${sealed}; all of it rolled back.`);
  } catch (error) {
    const { step, fix } = failedStep(error as DatabaseError);
    return problem('signup', `A signup as a visitor fails at ${step}: ${said(error as DatabaseError)}.`, fix);
  } finally {
    await db.query('rollback').catch(() => {}); // a cut connection ends the transaction with it
  }
}
