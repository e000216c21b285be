/**
 * The discovery documents of the sample podcast against the real server: the RFC 9727 API catalog, the OAuth
 * metadata, the x402 documents, auth.md and the OpenAPI description (checked with an OpenAPI 3.1 validator and
 * against the routes the service really registers). Every link they carry is followed and must answer.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ApiCatalogSchema, type ApiCatalog } from '../../contract/schemas/discovery.ts';
import {
  AuthorizationServerMetadataSchema,
  OpenIdConfigurationSchema,
  ProtectedResourceMetadataSchema,
} from '../../contract/schemas/oauth.ts';
import { X402DiscoveryResourcesSchema, X402SupportedSchema } from '../../contract/schemas/donate.ts';
import { catalogLinks } from '../../src/build/discovery/api-catalog.ts';
import { apiRoutes } from '../../functions/routes.ts';
import { OAUTH_ENDPOINTS, OAUTH_PATHS } from '../../contract/oauth.ts';

let server: RunningServer;
let site: string;
const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const local = (url: string) => (url.startsWith(site) ? `${server.url}${url.slice(site.length)}` : url);

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  site = (await (await get('/service.json')).json()).show.siteUrl;
});
afterAll(() => server?.stop());

/** GETs each address (on this site) and returns the ones that did not answer 2xx, with their status. */
async function broken(urls: Iterable<string>): Promise<string[]> {
  const failures: string[] = [];
  for (const url of new Set(urls)) {
    const res = await fetch(local(url), { headers: { Accept: 'application/json, text/markdown, text/plain, */*' } });
    await res.arrayBuffer();
    if (res.status < 200 || res.status > 299) failures.push(`${res.status} ${url}`);
  }
  return failures;
}

/** Every string in a JSON document that is a whole absolute URL on this site. */
function siteUrlsIn(doc: unknown, out = new Set<string>()): Set<string> {
  if (typeof doc === 'string') {
    if (doc.startsWith(site) && !/\s|\.\.\./.test(doc)) out.add(doc);
  } else if (Array.isArray(doc)) doc.forEach((d) => siteUrlsIn(d, out));
  else if (doc && typeof doc === 'object') Object.values(doc).forEach((d) => siteUrlsIn(d, out));
  return out;
}

/** Links in Markdown or plain text that point at this site. */
function ownLinks(text: string): string[] {
  const found = [...text.matchAll(/https?:\/\/[^\s)<>"'`\]]+/g)].map((m) => m[0].replace(/[.,;:]+$/, ''));
  return [...new Set(found.filter((u) => u.startsWith(site) && !u.includes('{')))];
}

describe('/.well-known/api-catalog (RFC 9727)', () => {
  let catalog: ApiCatalog;
  beforeAll(async () => {
    const res = await get('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
    catalog = ApiCatalogSchema.parse(await res.json());
  });

  it('describes the service with service-desc, service-doc, status and service-meta', () => {
    const root = catalog.linkset.find((i) => i.anchor === `${site}/`)!;
    expect(root).toBeDefined();
    expect(root['service-desc']!.map((l) => l.href)).toEqual([`${site}/openapi.json`]);
    expect(root['service-desc']![0]!.type).toMatch(/openapi/);
    expect(root['service-doc']!.map((l) => l.href)).toEqual(expect.arrayContaining([`${site}/docs.md`, `${site}/llms.txt`, `${site}/AGENTS.md`, `${site}/auth.md`]));
    expect(root.status!.map((l) => l.href)).toEqual([`${site}/status`]);
    expect(root['service-meta']!.map((l) => l.href)).toEqual(
      expect.arrayContaining([`${site}/.well-known/mcp/server-card.json`, `${site}/.well-known/oauth-protected-resource`, `${site}/.well-known/oauth-authorization-server`]),
    );
    expect(root.related!.map((l) => l.href)).toEqual(expect.arrayContaining([`${site}/search/lunr-index.json`, `${site}/episodes.json`, `${site}/rss.xml`]));
    const anchors = catalog.linkset.map((i) => i.anchor);
    for (const api of ['/api/search', '/ask', '/mcp', '/donate', '/oauth/token']) expect(anchors).toContain(`${site}${api}`);
  });

  it('has no dead link', async () => {
    expect(await broken(catalogLinks(catalog))).toEqual([]);
  });
});

describe('OAuth metadata documents', () => {
  const docs = [
    [OAUTH_PATHS.protectedResource, ProtectedResourceMetadataSchema],
    [OAUTH_PATHS.authorizationServer, AuthorizationServerMetadataSchema],
    [OAUTH_PATHS.openidConfiguration, OpenIdConfigurationSchema],
  ] as const;

  it('are JSON, valid, and name this site as issuer and resource', async () => {
    for (const [path, schema] of docs) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      const doc = schema.parse(await res.json()) as Record<string, unknown>;
      expect(doc.issuer ?? doc.resource, path).toBe(site);
    }
  });

  it('point only at endpoints that answer', async () => {
    const urls = new Set<string>();
    for (const [path] of docs) siteUrlsIn(await (await get(path)).json(), urls);
    // Endpoints that are not plain GETs are exercised the way a client would use them.
    const post: Record<string, RequestInit> = {
      [`${site}${OAUTH_PATHS.token}`]: { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' },
      [`${site}${OAUTH_PATHS.claim}`]: { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'identity_type=identity_assertion' },
      [`${site}${OAUTH_PATHS.revoke}`]: { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'token=x' },
    };
    const authorize = `${site}${OAUTH_PATHS.authorize}`;
    expect(urls).toContain(authorize);
    const res = await fetch(
      `${local(authorize)}?response_type=code&client_id=public&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/cb')}&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    urls.delete(authorize);
    for (const [url, init] of Object.entries(post)) {
      expect(urls, url).toContain(url);
      const r = await fetch(local(url), init);
      expect(r.status, url).toBe(200);
      urls.delete(url);
    }
    for (const path of [OAUTH_PATHS.register, OAUTH_PATHS.jwks, OAUTH_PATHS.authMd]) expect(urls).toContain(`${site}${path}`);
    expect(await broken(urls)).toEqual([]);
  });
});

describe('x402 documents', () => {
  it('publish the tip endpoint', async () => {
    const supported = X402SupportedSchema.parse(await (await get('/.well-known/x402/supported')).json());
    expect(supported.kinds.length).toBeGreaterThan(0);
    const resources = X402DiscoveryResourcesSchema.parse(await (await get('/.well-known/discovery/resources')).json());
    expect(resources.items[0]!.resource).toBe(`${site}/donate`);
  });
});

describe('/openapi.json', () => {
  let spec: { openapi: string; paths: Record<string, Record<string, unknown>>; servers: Array<{ url: string }> };
  beforeAll(async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    spec = await res.json();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(spec));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(spec.servers[0]!.url).toBe(site);
  });

  it('describes every route the service registers, with every method', () => {
    for (const route of apiRoutes) {
      const path = spec.paths[route.path];
      expect(path, route.path).toBeDefined();
      for (const method of Object.keys(route.methods)) expect(path![method.toLowerCase()], `${method} ${route.path}`).toBeDefined();
    }
    for (const e of OAUTH_ENDPOINTS) expect(spec.paths[e.path]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeDefined();
    for (const path of ['/episodes.json', '/search-index.json', '/rss.xml', '/llms.txt', '/mcp', '/.well-known/mcp', '/.well-known/mcp/server-card.json', '/.well-known/api-catalog', '/donate']) {
      expect(spec.paths[path], path).toBeDefined();
    }
  });

  it('has only paths that exist (GET documents answer 2xx)', async () => {
    const plainGets = Object.entries(spec.paths)
      .filter(([path, ops]) => ops.get && !path.includes('{') && !['/api/search', '/ask', OAUTH_PATHS.authorize, OAUTH_PATHS.agentAuth].includes(path))
      .map(([path]) => `${site}${path}`);
    expect(await broken(plainGets)).toEqual([]);
  });
});

describe('/auth.md and the agent documents', () => {
  it('walks through every OAuth endpoint', async () => {
    const res = await get('/auth.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    for (const e of OAUTH_ENDPOINTS) expect(text, e.path).toContain(e.path);
    for (const word of ['PKCE', 'S256', 'client_credentials', 'jwt-bearer', 'refresh_token', 'invalid_token', 'EdDSA', 'HS256', 'replay_as_bearer']) {
      expect(text, word).toContain(word);
    }
  });

  it('auth.md, llms.txt, AGENTS.md and docs.md link only to addresses that answer', async () => {
    const links = new Set<string>();
    for (const path of ['/auth.md', '/llms.txt', '/AGENTS.md', '/docs.md']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      for (const link of ownLinks(await res.text())) {
        // Templates in prose (".../api/search?q=<words>") and endpoints that need a method, parameters or are 401 by
        // design (/agent/auth) are exercised elsewhere; every other link must answer.
        if (link.endsWith('=') || /\/(api\/search|ask|donate|agent\/auth)$/.test(link) || link.includes('/oauth/authorize') || /\/oauth\/(token|claim|revoke)$/.test(link)) continue;
        links.add(link);
      }
    }
    expect(links.size).toBeGreaterThan(10);
    expect(await broken(links)).toEqual([]);
  });

  it('llms.txt and docs.md describe what the service does: what the rate limit counts, what the Lunr index and passages.json hold', async () => {
    const llms = await (await get('/llms.txt')).text();
    const docs = await (await get('/docs.md')).text();
    // A page, unlike a document, carries no rate-limit headers: it is not counted.
    expect((await get('/episodes/')).headers.get('x-ratelimit-limit')).toBeNull();
    expect((await get('/episodes.json')).headers.get('x-ratelimit-limit')).toBe('100000');
    expect(llms).toContain("the website's pages, scripts, images and audio are not counted");
    expect(docs).toContain('pages, scripts, images and audio are not counted');
    // The Lunr index holds the episodes' own fields; passages.json says where the chunk files are.
    const lunr = (await (await get('/search/lunr-index.json')).json()) as { fields: string[] };
    expect(lunr.fields).toEqual(['title', 'description', 'guests', 'topics', 'chapters']);
    expect(llms).toContain('prebuilt Lunr 2 index of the episodes');
    expect(llms).not.toContain('index of transcript passages');
    const passages = (await (await get('/search/passages.json')).json()) as { passages: { path: string } };
    expect(passages.passages.path).toMatch(/\{id\}-\{chunk\}/);
    expect(docs).not.toContain('one file per episode');
  });
});
