/**
 * Netlify and Vercel run the service as a Node-runtime function behind their CDN. Their CLIs need accounts, so
 * these tests do what the platforms do: run the build step the README's recipe runs, check the routing it wrote,
 * import the built function entry and call it with Web Requests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeNetlifyOutput } from '../../hosts/netlify/build.ts';
import { writeVercelOutput } from '../../hosts/vercel/build.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { SearchResponseSchema } from '../../contract/schemas/search.ts';

const ROOT = resolve(import.meta.dirname, '../..');

// The functions log like the Node host; only warnings matter here.
process.env.LOG_LEVEL = 'warn';

type Call = (request: Request, ip: string) => Promise<Response>;

/** What each platform's entry must do for the same requests. */
function behavesLikeTheService(name: string, call: () => Call) {
  it(`${name}: serves a contract document with its type and X-RateLimit-*, for this client only`, async () => {
    const res = await call()(new Request('https://podcast.example/episodes.json'), '203.0.113.7');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    // Browsers and apps may keep it for 5 minutes; the platform's CDN must not give it to other clients.
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('cdn-cache-control')).toBe('no-store');
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(10);
  });

  it(`${name}: answers the API`, async () => {
    const res = await call()(new Request('https://podcast.example/api/search?q=varroa'), '203.0.113.7');
    expect(res.status).toBe(200);
    expect(SearchResponseSchema.parse(await res.json()).results[0]?.id).toBe(3);
    const ask = await call()(
      new Request('https://podcast.example/ask', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":"what is a starter?"}' }),
      '203.0.113.7',
    );
    expect(ask.status).toBe(200);
    await ask.arrayBuffer();
  });

  // Their handlers are imported on first use (functions/lazy.ts): the bundle must hold them, not look for files.
  it(`${name}: answers MCP, OAuth, a bearer token and /donate`, async () => {
    const ip = '203.0.113.9';
    const rpc = await call()(
      new Request('https://podcast.example/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_episodes', arguments: { query: 'varroa' } } }),
      }),
      ip,
    );
    expect(rpc.status).toBe(200);
    expect(((await rpc.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    const token = await call()(
      new Request('https://podcast.example/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'search:episodes' }),
      }),
      ip,
    );
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const authorized = await call()(new Request('https://podcast.example/status', { headers: { Authorization: `Bearer ${access_token}` } }), ip);
    expect(authorized.status).toBe(200);
    await authorized.arrayBuffer();
    const refused = await call()(new Request('https://podcast.example/status', { headers: { Authorization: 'Bearer not-a-token' } }), ip);
    expect(refused.status).toBe(401);
    await refused.arrayBuffer();
    const donate = await call()(new Request('https://podcast.example/donate', { method: 'POST' }), ip);
    expect(donate.status).toBe(402);
    await donate.arrayBuffer();
  });

  it(`${name}: errors are the contract's envelope, and the rate limit is per client address`, async () => {
    const res = await call()(new Request('https://podcast.example/api/search'), '203.0.113.8');
    expect(res.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(await res.json()).error.hint).toMatch(/q/);
    for (let i = 0; i < 60; i++) await (await call()(new Request('https://podcast.example/status'), '198.51.100.1')).arrayBuffer();
    const limited = await call()(new Request('https://podcast.example/status'), '198.51.100.1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const other = await call()(new Request('https://podcast.example/status'), '198.51.100.2');
    expect(other.status).toBe(200);
  });
}

describe('Netlify', () => {
  let handler: (request: Request, context: { ip: string }) => Promise<Response>;
  let config: { path: string[]; preferStatic: boolean };
  let distDir: string;
  beforeAll(async () => {
    distDir = inject('distDir');
    const entry = await writeNetlifyOutput(distDir);
    const mod = (await import(pathToFileURL(entry).href)) as { default: typeof handler; config: typeof config };
    handler = mod.default;
    config = mod.config;
  });

  it('routes the API and the contract documents to the function, before the CDN', () => {
    expect(config.preferStatic).toBe(false);
    expect(config.path).toEqual(expect.arrayContaining(['/api/search', '/ask', '/mcp', '/status', '/episodes.json', '/rss.xml', '/llms.txt', '/.well-known/*']));
    expect(config.path).not.toContain('/');
    // Netlify's router lower-cases the request's path before comparing it with a full route.
    expect(config.path).toEqual(expect.arrayContaining(['/AGENTS.md', '/agents.md']));
  });

  it('writes what netlify.toml publishes and bundles: the site without .br/.gz for the CDN, the documents without audio for the function', () => {
    const toml = readFileSync(join(ROOT, 'netlify.toml'), 'utf8');
    const setting = (name: string) => new RegExp(`^\\s*${name}\\s*=\\s*(.+)$`, 'm').exec(toml)?.[1]?.trim();
    const under = (value: string | undefined) => join(distDir, value!.replace(/^["[]+|["\]]+$/g, '').replace(/^dist\//, '').replace(/\/\*\*$/, ''));
    const publish = under(setting('publish'));
    const functionFiles = under(setting('included_files'));
    expect(existsSync(join(publish, 'index.html'))).toBe(true);
    expect(existsSync(join(publish, 'audio/003-beekeeping.mp3'))).toBe(true);
    expect(existsSync(join(publish, 'index.html.br'))).toBe(false);
    expect(existsSync(join(publish, 'episodes.json.gz'))).toBe(false);
    expect(existsSync(join(publish, '_manifest.json'))).toBe(false);
    expect(existsSync(join(functionFiles, 'episodes.json'))).toBe(true);
    expect(existsSync(join(functionFiles, '_manifest.json'))).toBe(true);
    expect(existsSync(join(functionFiles, 'audio'))).toBe(false);
    expect(existsSync(join(functionFiles, 'index.html'))).toBe(false);
    expect(existsSync(join(under(setting('directory')), 'service.mjs'))).toBe(true);
    const headers = readFileSync(join(publish, '_headers'), 'utf8');
    expect(headers).toMatch(/^\/\*\n {2}Content-Security-Policy: .*script-src 'self'/m);
    expect(headers).toContain('/audio/*\n  Cache-Control: public, max-age=86400\n  Accept-Ranges: bytes\n');
    expect(headers).toContain('/artwork.png\n  Cache-Control: public, max-age=86400\n');
  });

  it("builds with the site's address: SITE_URL when set, else the URL Netlify gives the site", () => {
    const command = /^\s*command\s*=\s*'(.+)'$/m.exec(readFileSync(join(ROOT, 'netlify.toml'), 'utf8'))?.[1];
    expect(command).toContain('npm run build:netlify');
    const siteUrlSeen = (env: Record<string, string>) =>
      execFileSync('bash', ['-c', command!.replace('npm run build:netlify', 'printenv SITE_URL')], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' }).trim();
    expect(siteUrlSeen({ URL: 'https://bees.netlify.app' })).toBe('https://bees.netlify.app');
    expect(siteUrlSeen({ URL: 'https://bees.netlify.app', SITE_URL: 'https://podcast.example' })).toBe('https://podcast.example');
  });

  behavesLikeTheService('Netlify', () => (request, ip) => handler(request, { ip }));
});

describe('Vercel', () => {
  let outDir: string;
  let fetchEntry: (request: Request) => Promise<Response>;
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'vercel-output-'));
    await writeVercelOutput(inject('distDir'), outDir);
    const mod = (await import(pathToFileURL(join(outDir, 'functions/service.func/index.mjs')).href)) as { default: { fetch: typeof fetchEntry } };
    fetchEntry = mod.default.fetch;
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('writes the Build Output API v3 layout: static site, one Node function with its documents, routes', () => {
    const vc = JSON.parse(readFileSync(join(outDir, 'functions/service.func/.vc-config.json'), 'utf8')) as Record<string, unknown>;
    expect(vc).toMatchObject({ launcherType: 'Nodejs', handler: 'index.mjs' });
    expect(existsSync(join(outDir, 'static/index.html'))).toBe(true);
    expect(existsSync(join(outDir, 'functions/service.func/client/episodes.json'))).toBe(true);
    // Audio stays on the CDN only, and the CDN gets no precompressed copies nor the files only hosts read.
    expect(existsSync(join(outDir, 'functions/service.func/client/audio'))).toBe(false);
    expect(existsSync(join(outDir, 'static/audio/003-beekeeping.mp3'))).toBe(true);
    for (const hostOnly of ['index.html.br', 'episodes.json.gz', '_manifest.json', '_headers']) expect(existsSync(join(outDir, 'static', hostOnly)), hostOnly).toBe(false);
    const config = JSON.parse(readFileSync(join(outDir, 'config.json'), 'utf8')) as { version: number; routes: Array<Record<string, unknown>> };
    expect(config.version).toBe(3);
    const filesystem = config.routes.findIndex((r) => r.handle === 'filesystem');
    const episodes = config.routes.findIndex((r) => typeof r.src === 'string' && new RegExp(r.src).test('/episodes.json') && r.dest === '/service');
    expect(episodes).toBeGreaterThan(-1);
    expect(episodes).toBeLessThan(filesystem);
    expect(config.routes.at(-1)).toMatchObject({ dest: '/service' });
    // The CDN's files get the headers the Node host gives them.
    const headersFor = (path: string) => Object.assign({}, ...config.routes.filter((r) => typeof r.src === 'string' && r.headers && new RegExp(r.src).test(path)).map((r) => r.headers));
    expect(headersFor('/audio/003-beekeeping.mp3')).toMatchObject({ 'Cache-Control': 'public, max-age=86400', 'Accept-Ranges': 'bytes', 'X-Content-Type-Options': 'nosniff' });
    expect(headersFor('/artwork.png')).toMatchObject({ 'Cache-Control': 'public, max-age=86400' });
    expect(headersFor('/_astro/x.js')).toMatchObject({ 'Cache-Control': 'public, max-age=31536000, immutable' });
  });

  behavesLikeTheService('Vercel', () => (request, ip) => {
    const withIp = new Request(request, { headers: new Headers([...request.headers, ['x-real-ip', ip]]) });
    return fetchEntry(withIp);
  });
});
