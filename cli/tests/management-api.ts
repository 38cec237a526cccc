/**
 * A stand-in of Supabase's Management API on 127.0.0.1, as far as `waitlist setup`, `health` and
 * the pinned Supabase CLI (config push, secrets set, functions deploy --use-api) use it: each call
 * recorded, each answer in the shape the CLI 3.1.0 decodes (it stops on a missing key). The Auth
 * config (management-api-auth.json) holds every key of the CLI's AuthConfigResponse, null where
 * the type allows it. The CLI reaches it through a profile file naming its api_url (`--profile`);
 * the commands through SUPABASE_API_URL.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';

/** What the CLI takes for a project ref and an access token: 20 lowercase letters; sbp_ and 40 characters. */
export const REF = 'standinstandinstandi';
export const TOKEN = `sbp_${'0'.repeat(40)}`;
export const PUBLISHABLE_KEY = 'sb_publishable_stand-in-key';
const AUTH = JSON.parse(readFileSync(new URL('management-api-auth.json', import.meta.url), 'utf8'));

export type Call = { method: string; path: string; body: string };
export type Upload = { slug: string; metadata: Record<string, unknown>; files: { name: string; text: string }[] };
export type State = {
  disableSignup: boolean;
  dbSchema: string;
  secrets: Map<string, string>;
  /** Each function upload: its slug, the metadata sent (entrypoint_path, verify_jwt…) and every file with its text. */
  deployed: Upload[];
  /** Answer this path (METHOD /path) with 500, to make a step fail. */
  failing?: string;
};

const project = {
  id: '1',
  ref: REF,
  name: 'stand-in',
  organization_id: 'org',
  organization_slug: 'org',
  region: 'eu-west-1',
  created_at: '2026-11-28T00:00:00Z',
  status: 'ACTIVE_HEALTHY',
  database: { host: `db.${REF}.supabase.co`, version: '17.4', postgres_engine: '17', release_channel: 'ga' },
};

const postgrest = (state: State) => ({
  db_schema: state.dbSchema,
  db_extra_search_path: 'public,extensions',
  max_rows: 1000,
  db_pool: null,
  db_pool_acquisition_timeout: null,
  db_pool_max_lifetime: null,
  db_pool_max_idletime: null,
});

/** GET /v2/projects/{ref}/config: every section the CLI's config diff and push compare. */
const config = (state: State) => ({
  data: {
    type: 'project_config',
    id: REF,
    attributes: {
      database: {
        major_version: 17,
        ssl_enforced: true,
        network_restrictions: { entitlement: 'allowed', status: 'applied', allowed_cidrs: [] },
        postgres_settings: {},
      },
      pooler: {
        pool_mode: 'transaction',
        ignore_startup_parameters: '',
        server_idle_timeout: 0,
        server_lifetime: 0,
        query_wait_timeout: 0,
        reserve_pool_size: 0,
        default_pool_size: 15,
        max_client_conn: 200,
      },
      auth: { ...AUTH, disable_signup: state.disableSignup },
      api: {
        ...postgrest(state),
        db_pool_acquisition_timeout: 10,
        db_pool_max_lifetime: 1800,
        db_pool_max_idletime: 30,
      },
      realtime: {
        private_only: false,
        max_concurrent_users: 200,
        max_events_per_second: 100,
        max_bytes_per_second: 100000,
        max_channels_per_client: 100,
        max_joins_per_second: 100,
        max_presence_events_per_second: 100,
        max_payload_size_in_kb: 100,
        presence_enabled: true,
        suspend: false,
        connection_pool: 2,
        postgres_changes_pool: null,
      },
      storage: {
        file_size_limit: 52428800,
        features: {
          image_transformation: { enabled: false },
          s3_protocol: { enabled: false },
          purge_cache: { enabled: false },
          iceberg_catalog: { enabled: false, max_namespaces: 0, max_tables: 0, max_catalogs: 0 },
          vector_buckets: { enabled: false, max_buckets: 0, max_indexes: 0 },
        },
        capabilities: { list_v2: true, iceberg_catalog: false, object_versioning: false },
        upstream_target: 'main',
        migration_version: null,
      },
    },
  },
});

/** The answer to one call, or undefined (404). Changes `state` as the real API would. */
function answer(
  state: State,
  method: string,
  path: string,
  body: string,
  form?: Upload,
): [number, unknown] | undefined {
  const v1 = `/v1/projects/${REF}`;
  const route = `${method} ${path.split('?')[0]}`;
  const json = () => JSON.parse(body || '{}');
  switch (route) {
    case `GET ${v1}`:
      return [200, project];
    case 'GET /v1/projects': // another project first: the owner picks theirs
      return [200, [{ ...project, ref: 'otherprojectrefxxxxx', name: 'another' }, project]];
    case `GET ${v1}/billing/addons`:
      return [200, { available_addons: [], selected_addons: [] }];
    case `GET /v2/projects/${REF}/config`:
      return [200, config(state)];
    case `PATCH ${v1}/postgrest`:
      state.dbSchema = json().db_schema ?? state.dbSchema;
      return [200, postgrest(state)];
    case `GET ${v1}/postgrest`:
      return [200, postgrest(state)];
    case `PATCH ${v1}/config/auth`:
      state.disableSignup = json().disable_signup ?? state.disableSignup;
      return [200, { ...AUTH, disable_signup: state.disableSignup }];
    case `GET ${v1}/config/auth`:
      return [200, { ...AUTH, disable_signup: state.disableSignup }];
    case `GET ${v1}/config/database/pooler`: // the session pooler is this machine, on 5432
      return [200, [{ database_type: 'PRIMARY', db_host: '127.0.0.1', db_port: 6543, db_name: 'postgres' }]];
    case `GET ${v1}/api-keys`:
      return [200, [{ id: 'k1', name: 'default', type: 'publishable', api_key: PUBLISHABLE_KEY, prefix: null }]];
    case `GET ${v1}/secrets`: {
      const digest = (value: string) => createHash('sha256').update(value).digest('hex');
      return [200, [...state.secrets].map(([name, value]) => ({ name, value: digest(value) }))];
    }
    case `POST ${v1}/secrets`:
      for (const { name, value } of json() as { name: string; value: string }[]) state.secrets.set(name, value);
      return [201, {}];
    case `POST ${v1}/functions/deploy`: {
      const slug = new URL(path, 'http://x').searchParams.get('slug')!;
      state.deployed.push({ ...form!, slug });
      return [201, { id: slug, slug, name: slug, status: 'ACTIVE', version: state.deployed.length }];
    }
  }
  const fn = new RegExp(`^GET ${v1}/functions/([\\w-]+)$`).exec(route)?.[1];
  const deployed = state.deployed.findLast((d) => d.slug === fn);
  if (deployed) {
    return [
      200,
      { id: fn, slug: fn, name: fn, status: 'ACTIVE', version: 1, verify_jwt: deployed.metadata.verify_jwt },
    ];
  }
  return undefined;
}

/** A multipart body (the CLI's function upload) read as the platform reads it: its metadata and files. */
async function multipart(type = '', body: Uint8Array<ArrayBuffer>): Promise<Upload | undefined> {
  if (!type.startsWith('multipart/form-data')) return undefined;
  const form = await new Request('http://stand-in/', {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  }).formData();
  const files = form.getAll('file') as File[];
  return {
    slug: '',
    metadata: JSON.parse(String(form.get('metadata') ?? '{}')),
    files: await Promise.all(files.map(async (file) => ({ name: file.name, text: await file.text() }))),
  };
}

export async function startManagementApi(initial: Partial<State> = {}) {
  const state: State = {
    disableSignup: false,
    dbSchema: 'public,graphql_public',
    secrets: new Map(),
    deployed: [],
    ...initial,
  };
  const calls: Call[] = [];
  const server = createServer(async (request, response) => {
    const bytes = await buffer(request);
    const method = request.method!;
    const path = request.url!;
    const body = bytes.toString('latin1');
    calls.push({ method, path, body });
    const send = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'Unauthorized' });
    if (state.failing === `${method} ${path.split('?')[0]}`) return send(500, { message: 'stand-in failure' });
    const form = await multipart(request.headers['content-type'], new Uint8Array(bytes));
    const [status, value] = answer(state, method, path, body, form) ?? [404, { message: 'Not found' }];
    send(status, value);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    calls,
    /** A profile file for the CLI's --profile: the stand-in as its API. */
    profile(folder: string) {
      const file = join(folder, 'profile.yaml');
      writeFileSync(file, `name: stand-in\napi_url: ${url}\ndashboard_url: ${url}\nproject_host: 127.0.0.1\n`);
      return file;
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
