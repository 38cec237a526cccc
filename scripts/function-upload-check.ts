/**
 * npm run test:function-upload: the unsubscribe function as supabase/README.md deploys it. Runs the
 * README's `functions deploy unsubscribe` line (the pinned CLI, by npx) against a stand-in of the
 * Management API on 127.0.0.1 that records what the CLI sends, and fails unless the upload holds
 * every file the function imports (index.ts, its own files, the contracts/ files they import), each
 * as it is here, and nothing else, with supabase/config.toml's verify_jwt in its metadata.
 * The CLI leaves out an import without its extension without a word (and only warns about a
 * missing file), exiting 0 either way: so the check also deploys a copy whose index.ts imports a
 * contract without its extension, and fails unless it catches that copy. No network but npx's.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importSpecifiers, isRelative } from './import-specifiers.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FUNCTION = 'unsubscribe';
const ENTRY = `supabase/functions/${FUNCTION}/index.ts`;
/** What the CLI takes for a project ref and an access token: 20 lowercase letters; sbp_ and 40 characters. */
const REF = 'standinstandinstandi';
const TOKEN = `sbp_${'0'.repeat(40)}`;
const JSON_TYPE = { 'content-type': 'application/json' };

type Upload = { files: { name: string; text: string }[]; metadata: Record<string, unknown> };

/** The README's deploy line for the function, its `<ref>` the stand-in's. */
function documentedDeploy(): string {
  const lines = readFileSync(join(ROOT, 'supabase/README.md'), 'utf8').split('\n');
  const line = lines.find((text) => new RegExp(`^npx .*\\bsupabase@[\\d.]+ functions deploy ${FUNCTION} `).test(text));
  if (!line)
    throw new Error(`supabase/README.md shows no \`npx … supabase@<version> functions deploy ${FUNCTION}\` line.`);
  return line.replace(/\s+#.*$/, '').replaceAll('<ref>', REF);
}

/**
 * The Management API as far as `functions deploy --use-api` uses it: every call recorded, the
 * deploy's multipart body kept, the deploy answered with the fields the CLI requires of it (it
 * stops on a missing one), anything else 404.
 */
async function standIn() {
  const calls: string[] = [];
  const uploads: Upload[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    calls.push(`${request.method} ${request.url}`);
    if (request.method !== 'POST' || request.url !== `/v1/projects/${REF}/functions/deploy?slug=${FUNCTION}`) {
      response.writeHead(404, JSON_TYPE).end('{"message":"Not found"}');
      return;
    }
    const body = new Request('http://stand-in/', {
      method: 'POST',
      headers: { 'content-type': request.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    });
    const form = await body.formData().catch(() => null);
    if (!form) {
      response.writeHead(400, JSON_TYPE).end('{"message":"Not a multipart body"}');
      return;
    }
    const files = await Promise.all(
      form.getAll('file').map(async (file) => ({ name: (file as File).name, text: await (file as File).text() })),
    );
    uploads.push({ files, metadata: JSON.parse(String(form.get('metadata') ?? '{}')) });
    const deployed = { id: 'stand-in', slug: FUNCTION, name: FUNCTION, status: 'ACTIVE', version: 1 };
    response.writeHead(201, JSON_TYPE).end(JSON.stringify(deployed));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, uploads, close: () => server.close() };
}

/** Runs the documented deploy of the project in `workdir` against the stand-in: its exit code and output. */
async function deploy(workdir: string, api: string, scratch: string) {
  const profile = join(scratch, 'profile.yaml');
  writeFileSync(profile, `name: stand-in\napi_url: ${api}\ndashboard_url: ${api}\nproject_host: 127.0.0.1\n`);
  const command = `${documentedDeploy()} --workdir "${workdir}" --profile "${profile}"`;
  console.log(`$ ${command}`);
  // DO_NOT_TRACK: the CLI sends no telemetry, so the stand-in is all it reaches.
  const env = { ...process.env, SUPABASE_ACCESS_TOKEN: TOKEN, DO_NOT_TRACK: '1' };
  return run('bash', ['-c', command], { cwd: workdir, env, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

/** The files of `root` the entry imports, directly or not; a problem for each import that names no file as written. */
function localImports(root: string) {
  const files: string[] = [];
  const problems: string[] = [];
  const visit = (path: string) => {
    if (files.includes(path)) return;
    files.push(path);
    for (const specifier of importSpecifiers(readFileSync(join(root, path), 'utf8')).filter(isRelative)) {
      const target = relative(root, resolve(root, dirname(path), specifier));
      if (existsSync(join(root, target)) && statSync(join(root, target)).isFile()) visit(target);
      else problems.push(`${path} imports "${specifier}", which names no file: write the file's whole name.`);
    }
  };
  visit(ENTRY);
  return { files, problems };
}

/** supabase/config.toml's verify_jwt for the function, or undefined when it sets none. */
function configuredVerifyJwt(root: string): boolean | undefined {
  const config = readFileSync(join(root, 'supabase/config.toml'), 'utf8');
  const section = new RegExp(`^\\[functions\\.${FUNCTION}\\]\\n((?:[^[].*\\n?|\\n)*)`, 'm').exec(config)?.[1] ?? '';
  const value = /^verify_jwt\s*=\s*(true|false)\s*$/m.exec(section)?.[1];
  return value === undefined ? undefined : value === 'true';
}

/** What is wrong with the uploads the stand-in received of the project in `root`. */
function uploadProblems(root: string, uploads: Upload[]): string[] {
  const { files, problems } = localImports(root);
  if (uploads.length !== 1) return [...problems, `${uploads.length} uploads of ${FUNCTION} arrived, not one.`];
  const [{ files: sent, metadata }] = uploads;
  for (const path of files) {
    const copies = sent.filter((file) => file.name === path);
    if (!copies.length) problems.push(`${path} was not uploaded.`);
    else if (copies.length > 1) problems.push(`${path} was uploaded ${copies.length} times.`);
    else if (copies[0].text !== readFileSync(join(root, path), 'utf8')) problems.push(`${path} arrived changed.`);
  }
  for (const { name } of sent)
    if (!files.includes(name)) problems.push(`${name} was uploaded, but nothing imports it.`);
  if (metadata.entrypoint_path !== ENTRY)
    problems.push(`The entry point sent is ${metadata.entrypoint_path}, not ${ENTRY}.`);
  // Mail providers POST without any Supabase key: the function must take no JWT.
  const verifyJwt = configuredVerifyJwt(root);
  if (verifyJwt !== false)
    problems.push(`supabase/config.toml's [functions.${FUNCTION}] says verify_jwt = ${verifyJwt}.`);
  if (metadata.verify_jwt !== verifyJwt) problems.push(`The upload says verify_jwt ${metadata.verify_jwt}.`);
  return problems;
}

/** A copy of the function and its contracts whose index.ts imports a contract without its extension. */
function brokenCopy(scratch: string): { copy: string; broken: string } {
  const copy = join(scratch, 'copy');
  for (const path of ['supabase/config.toml', `supabase/functions/${FUNCTION}`, 'contracts']) {
    cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  }
  const text = readFileSync(join(copy, ENTRY), 'utf8');
  const specifier = importSpecifiers(text).find((name) => /\/contracts\/.*\.ts$/.test(name));
  if (!specifier) throw new Error(`${ENTRY} imports nothing from contracts/: the copy has no such import to break.`);
  const broken = specifier.replace(/\.ts$/, '');
  writeFileSync(join(copy, ENTRY), text.replace(`'${specifier}'`, `'${broken}'`));
  return { copy, broken };
}

const scratch = mkdtempSync(join(tmpdir(), 'function-upload-'));
const api = await standIn();
try {
  console.log('# the function as it is');
  const deployed = await deploy(ROOT, api.url, scratch);
  process.stdout.write(deployed.output);
  if (deployed.code !== 0) throw new Error(`The deploy failed (exit ${deployed.code}).`);
  const sent = api.uploads.map((upload) => upload.files.map((file) => file.name));
  const problems = uploadProblems(ROOT, api.uploads.splice(0));
  console.log(`Management API calls: ${api.calls.splice(0).join(', ')}\nFiles uploaded: ${sent.flat().join(', ')}`);

  console.log('\n# a copy whose index.ts imports a contract without its extension');
  const { copy, broken } = brokenCopy(scratch);
  const copyDeployed = await deploy(copy, api.url, scratch);
  process.stdout.write(copyDeployed.output);
  const caught = uploadProblems(copy, api.uploads.splice(0));
  console.log(`The CLI exited ${copyDeployed.code}; this check found: ${caught.join(' ') || 'nothing'}`);
  if (!caught.some((problem) => problem.includes(`"${broken}"`))) {
    problems.push(`The import "${broken}" (no extension) went through unnoticed.`);
  }

  for (const problem of problems) console.error(problem);
  console.log(problems.length ? '\nThe upload check failed.' : '\nThe upload holds exactly what the function imports.');
  if (problems.length) process.exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  api.close();
  rmSync(scratch, { recursive: true, force: true });
}
