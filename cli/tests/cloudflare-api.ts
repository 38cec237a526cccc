/**
 * A stand-in of Cloudflare's API for the Pages calls setup and deploy make, through the real
 * wrangler (which takes its address from CLOUDFLARE_API_BASE_URL) and their own calls. It
 * answers the shapes wrangler reads (its src/pages/types.ts and api/pages/deploy.ts) and records
 * what arrived: every request, the projects, the uploaded files, the deployments, the domains.
 * A name in `taken` is another account's: a project made with it gets `<name>-4ab.pages.dev`.
 * `live` serves the latest production deployment as Pages would: its files, its _headers' `/*` block.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

export type Arrived = { method: string; path: string; authorization?: string; body: string };
export type Deployment = { branch?: string; manifest: Record<string, string>; headers?: string; message?: string };
type Project = { name: string; subdomain: string; domains: string[]; production_branch: string };

/** A JWT wrangler can read (it only decodes the claims: expiry, file count), never signed. */
const JWT = ['{"alg":"none"}', `{"exp":${Math.floor(Date.now() / 1000) + 3600}}`, '']
  .map((part) => Buffer.from(part).toString('base64url'))
  .join('.');

/** `token`: the one API token the stand-in takes (wrangler's upload JWT aside); any other is refused. */
export async function startCloudflareApi(token: string, taken: string[] = []) {
  const arrived: Arrived[] = [];
  const projects = new Map<string, Project>();
  /** The uploaded files by their hash (wrangler's manifest names them). */
  const files = new Map<string, Buffer>();
  const deployments: Deployment[] = [];
  const ok = (result: unknown) => [200, { success: true, errors: [], messages: [], result }] as const;
  const notFound = (code: number, message: string) =>
    [404, { success: false, errors: [{ code, message }], messages: [], result: null }] as const;

  const noRoute = (method: string | undefined, path: string) =>
    notFound(7003, `No route for ${method} ${path} in the stand-in`);
  const json = (body: Buffer) => JSON.parse(body.toString() || 'null');

  async function answer(request: IncomingMessage, path: string, query: URLSearchParams, body: Buffer) {
    if (path.startsWith('/accounts/') && request.headers.authorization !== `Bearer ${token}`) {
      return [
        403,
        { success: false, errors: [{ code: 10000, message: 'Authentication error' }], result: null },
      ] as const;
    }
    if (path === '/accounts') return ok([{ id: 'acc', name: "Ada's account" }]);
    if (/^\/accounts\/[^/]+\/pages\/projects$/.test(path)) {
      if (request.method === 'POST') {
        const { name, production_branch } = json(body) as { name: string; production_branch: string };
        const subdomain = `${name}${taken.includes(name) ? '-4ab' : ''}.pages.dev`;
        const project = { name, subdomain, domains: [subdomain], production_branch };
        projects.set(name, project);
        return ok(project);
      }
      const page = Number(query.get('page') ?? 1);
      return ok(page === 1 ? [...projects.values()].map((p) => ({ ...p, created_on: new Date().toISOString() })) : []);
    }
    const inProject = /^\/accounts\/[^/]+\/pages\/projects\/([^/]+)(\/.*)?$/.exec(path);
    if (inProject) {
      const project = projects.get(inProject[1]);
      if (!project) return notFound(8000007, 'Project not found.');
      return (await answerProject(request, project, inProject[2] ?? '', body)) ?? noRoute(request.method, path);
    }
    if (path === '/pages/assets/check-missing') {
      return ok((json(body) as { hashes: string[] }).hashes.filter((h) => !files.has(h)));
    }
    if (path === '/pages/assets/upload') {
      for (const file of json(body) as { key: string; value: string }[]) {
        files.set(file.key, Buffer.from(file.value, 'base64'));
      }
      return ok(null);
    }
    if (path === '/pages/assets/upsert-hashes') return ok(true);
    return noRoute(request.method, path);
  }

  /** A call under one project: `rest` is the path after its name (`/deployments`…); undefined: no such route. */
  async function answerProject(request: IncomingMessage, project: Project, rest: string, body: Buffer) {
    const method = request.method;
    if (rest === '') return ok({ ...project, deployment_configs: { production: {}, preview: {} } });
    if (rest === '/upload-token') return ok({ jwt: JWT });
    if (rest === '/domains' && method === 'POST') {
      const { name } = json(body) as { name: string };
      if (!project.domains.includes(name)) project.domains.push(name);
      return ok({ name, status: 'pending' });
    }
    if (rest === '/domains') return ok(project.domains.map((name) => ({ name, status: 'active' })));
    if (rest === '/deployments' && method === 'POST') {
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': request.headers['content-type']! },
      }).formData();
      const headers = form.get('_headers');
      deployments.push({
        branch: (form.get('branch') as string | null) ?? undefined,
        manifest: JSON.parse(form.get('manifest') as string) as Record<string, string>,
        headers: headers instanceof Blob ? await headers.text() : undefined,
        message: (form.get('commit_message') as string | null) ?? undefined,
      });
      return ok({ id: `d${deployments.length}`, url: `https://d${deployments.length}.${project.subdomain}` });
    }
    if (rest === '/deployments') {
      const environment = (d: Deployment) => (d.branch === project.production_branch ? 'production' : 'preview');
      const listed = deployments.map((d) => ({
        environment: environment(d),
        deployment_trigger: { metadata: { commit_message: d.message } },
      }));
      return ok(listed.reverse());
    }
    const id = /^\/deployments\/(d\d+)$/.exec(rest)?.[1];
    if (id) {
      const { branch } = deployments[Number(id.slice(1)) - 1];
      const alias = branch === project.production_branch ? project.subdomain : `${branch}.${project.subdomain}`;
      return ok({ id, latest_stage: { name: 'deploy', status: 'success' }, aliases: [`https://${alias}`] });
    }
    return undefined;
  }

  const server = createServer((request, response) => {
    void (async () => {
      const body = await buffer(request);
      const url = new URL(request.url!, 'http://stand-in');
      const path = url.pathname.replace(/^\/client\/v4/, '');
      arrived.push({
        method: request.method!,
        path,
        authorization: request.headers.authorization,
        body: body.toString(),
      });
      const [status, reply] = await answer(request, path, url.searchParams, body);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const live = createServer((request, response) => {
    const deployment = deployments.findLast((d) => d.branch === 'main');
    const path = request.url === '/' ? '/index.html' : request.url!;
    const file = deployment && files.get(deployment.manifest[path]);
    const block = deployment?.headers?.split('\n\n')[0].split('\n').slice(1) ?? [];
    const headers = block.flatMap((line) => [line.slice(2, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]);
    response.writeHead(file ? 200 : 404, ['content-type', 'text/html', ...headers]).end(file);
  });
  await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
  return {
    /** The live site (the latest production deployment), as a custom domain would serve it. */
    live: `http://127.0.0.1:${(live.address() as AddressInfo).port}`,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`,
    arrived,
    projects,
    files,
    deployments,
    /** The content of a deployment's file at `path` ("/index.html"), as uploaded. */
    fileOf: (deployment: Deployment, path: string) => files.get(deployment.manifest[path])?.toString(),
    close: () => Promise.all([server, live].map((each) => new Promise<void>((resolve) => each.close(() => resolve())))),
  };
}

export type CloudflareApi = Awaited<ReturnType<typeof startCloudflareApi>>;
