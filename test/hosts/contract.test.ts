/**
 * The contract, black-box, on every host the project supports: the same requests against `npm start` (Node),
 * `npm run preview:cloudflare` (workerd) and `npm run preview:bun`, each serving the same sample build. What a
 * host could lose when it is not the Node host (content types, rate-limit headers on static documents, security
 * headers, the error envelope, streaming, the 503 deadline) is asserted on each. Node's own behaviour beyond the
 * contract (logs, signals, framing) is tested in test/pipeline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EpisodeListSchema } from '../../contract/schemas/episode.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { AskResponseSchema, SearchResponseSchema } from '../../contract/schemas/search.ts';
import { StatusResponseSchema } from '../../contract/schemas/status.ts';
import { McpManifestSchema, McpServerCardSchema } from '../../contract/schemas/mcp.ts';
import { ApiCatalogSchema } from '../../contract/schemas/discovery.ts';
import type { RunningServer } from '../helpers/server.ts';
import { startHost, type HostName } from '../helpers/hosts.ts';
import { oauthClient, pkceAuthorization } from '../oauth/helpers.ts';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

async function expectEnvelope(res: Response, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = ErrorEnvelopeSchema.parse(await res.json());
  if (code) expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}

function expectRateHeaders(res: Response, limit = '1000') {
  for (const name of RATE_HEADERS) expect(res.headers.get(name), name).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-limit')).toBe(limit);
}

async function readEvents(res: Response): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) parser.feed(decoder.decode(chunk, { stream: true }));
  return events;
}

/** The full contract on Node and workerd; Bun gets the smoke part (one document, one API call, one error). */
const suites: Array<[HostName, 'full' | 'smoke']> = [
  ['node', 'full'],
  ['cloudflare', 'full'],
  ['bun', 'smoke'],
];

describe.each(suites)('on %s', (host, depth) => {
  let server: RunningServer;
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

  beforeAll(async () => {
    // A generous budget: this suite sends many requests from one address. The contract's 60 is tested below.
    server = await startHost(host, { distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '1000', RESPONSE_TIMEOUT_MS: '30000' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves /episodes.json from the build, with its content type and rate-limit headers', async () => {
    const res = await get('/episodes.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expectRateHeaders(res);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const episodes = EpisodeListSchema.parse(await res.json());
    expect(episodes.map((e) => e.id)).toEqual([...episodes.map((e) => e.id)].sort((a, b) => a - b));
  });

  it('answers /api/search with the contract\'s SearchResponse, and a bad parameter with the envelope', async () => {
    const res = await get('/api/search?q=honeybee&limit=3');
    expect(res.status).toBe(200);
    expectRateHeaders(res);
    const body = SearchResponseSchema.parse(await res.json());
    expect(body.results[0]?.id).toBe(3);
    const bad = await expectEnvelope(await get('/api/search?q=bees&limit=51'), 400);
    expect(bad.hint).toMatch(/limit/);
  });

  it('HEAD on an API route says what GET would send: no body, and its Content-Length or none (never another)', async () => {
    for (const path of ['/api/search?q=honeybee&limit=3', '/status', '/mcp', '/oauth/jwks.json']) {
      const body = new Uint8Array(await (await get(path, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer());
      const head = await get(path, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
      expect(head.status, path).toBe(200);
      expect((await head.arrayBuffer()).byteLength, path).toBe(0);
      const length = head.headers.get('content-length');
      if (length !== null) expect(Number(length), path).toBe(body.byteLength);
      expect(head.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });

  // (Not on Cloudflare: its edge writes the Date of every answer, which the local preview, workerd alone, does not.)
  if (host !== 'cloudflare') it('every answer carries a Date (RFC 9110 §6.6.1), a HEAD\'s too', async () => {
    for (const path of ['/episodes.json', '/status', '/api/search?q=honeybee', '/no/such/file.json']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(path, { method });
        await res.arrayBuffer();
        const date = res.headers.get('date');
        expect(date ?? 'none', `${method} ${path}`).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
        expect(Math.abs(Date.parse(date!) - Date.now()), `${method} ${path}`).toBeLessThan(60_000);
      }
    }
  });

  it('answers an unknown path with the 404 envelope', async () => {
    const error = await expectEnvelope(await get('/no/such/thing'), 404, 'not_found');
    expect(error.hint).toMatch(/docs\.md/);
  });

  if (depth === 'smoke') return;

  it.each([
    ['/search-index.json', /^application\/json/],
    ['/rss.xml', /^application\/rss\+xml/],
    ['/llms.txt', /^text\/plain/],
    ['/docs.md', /^text\/markdown/],
    ['/AGENTS.md', /^text\/markdown/],
    ['/auth.md', /^text\/markdown/],
    ['/openapi.json', /^application\/json/],
    ['/.well-known/api-catalog', /^application\/linkset\+json/],
    ['/.well-known/mcp/server-card.json', /^application\/json/],
    ['/.well-known/oauth-authorization-server', /^application\/json/],
    ['/.well-known/oauth-protected-resource', /^application\/json/],
    ['/.well-known/openid-configuration', /^application\/json/],
    ['/oauth/jwks.json', /^application\/json/],
    ['/status', /^application\/json/],
    ['/mcp', /^application\/json/],
    ['/.well-known/mcp', /^application\/json/],
  ])('GET %s: 200, the right type and X-RateLimit-*', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expectRateHeaders(res);
    await res.arrayBuffer();
  });

  it('documents parse as the contract says', async () => {
    StatusResponseSchema.parse(await (await get('/status')).json());
    McpManifestSchema.parse(await (await get('/mcp')).json());
    McpServerCardSchema.parse(await (await get('/.well-known/mcp/server-card.json')).json());
    ApiCatalogSchema.parse(await (await get('/.well-known/api-catalog')).json());
    const index = (await (await get('/search-index.json')).json()) as Record<string, string>;
    expect(Object.keys(index)).toContain('1');
  });

  it('a page carries its Content-Security-Policy and the security headers', async () => {
    const res = await get('/', { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<html');
  });

  it('a player seeks in an episode: a range is 206 with exactly those bytes, one outside the file 416, a stale If-Range the whole file', async () => {
    const path = '/audio/003-beekeeping.mp3';
    const audio = readFileSync(join(inject('distDir'), 'client', path.slice(1)));
    const whole = await get(path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(audio.length));
    const etag = whole.headers.get('etag')!;
    await whole.arrayBuffer();
    const mid = Math.floor(audio.length / 2);
    const ranges: Array<[string, number, number]> = [
      ['bytes=0-1', 0, 1],
      [`bytes=${mid}-${mid + 4095}`, mid, mid + 4095],
      [`bytes=${mid}-`, mid, audio.length - 1],
      ['bytes=-100', audio.length - 100, audio.length - 1],
    ];
    for (const [range, start, end] of ranges) {
      const res = await get(path, { headers: { Range: range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${audio.length}`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(audio.subarray(start, end + 1)), range).toBe(true);
    }
    const current = await get(path, { headers: { Range: 'bytes=10-19', 'If-Range': etag } });
    expect(current.status).toBe(206);
    expect(Buffer.from(await current.arrayBuffer()).equals(audio.subarray(10, 20))).toBe(true);
    const stale = await get(path, { headers: { Range: 'bytes=10-19', 'If-Range': '"another-version"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(audio.length);
    const outside = await get(path, { headers: { Range: `bytes=${audio.length}-` } });
    expect(outside.headers.get('content-range')).toBe(`bytes */${audio.length}`);
    await expectEnvelope(outside, 416, 'range_not_satisfiable');
  });

  it('the build\'s own list of files is not published: /_manifest.json is the 404 envelope, however it is spelled', async () => {
    for (const path of ['/_manifest.json', '/%5Fmanifest.json', '/%5fmanifest.json', '//_manifest.json']) {
      const error = await expectEnvelope(await get(path), 404, 'not_found');
      expect(error.message.length, path).toBeGreaterThan(0);
    }
    const page = await get('/', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
  });

  it('a browser asking for a missing page gets the HTML 404 page', async () => {
    const res = await get('/episodes/999-nothing/', { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    await res.text();
  });

  it('a method a document does not take is 405 with Allow', async () => {
    const res = await get('/episodes.json', { method: 'POST' });
    await expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toMatch(/GET/);
  });

  it('POST /ask answers JSON, and an event stream start → result* → complete when asked', async () => {
    const question = 'how do honeybees survive the winter?';
    const json = await get('/ask', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: question, limit: 3 }) });
    expect(json.status).toBe(200);
    expectRateHeaders(json);
    const answer = AskResponseSchema.parse(await json.json());
    expect(answer.results[0]?.id).toBe(3);
    // Each result offers its moments, the first being its own start.
    expect(answer.results[0]?.moments?.[0]?.start).toBe(answer.results[0]?.start);
    const stream = await get('/ask', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ query: question, limit: 3 }),
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(stream);
    expect(events[0]?.event).toBe('start');
    expect(events.at(-1)?.event).toBe('complete');
    expect(events.filter((e) => e.event === 'result').map((e) => (JSON.parse(e.data) as { id: number }).id)).toEqual(answer.results.map((r) => r.id));
    await expectEnvelope(await get('/ask', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":' }), 400);
  });

  it('a body over the size limit is 413 with the envelope, whether its length is declared or not', async () => {
    const big = new TextEncoder().encode(JSON.stringify({ query: 'a'.repeat(1024 * 1024) }));
    const post = (body: BodyInit) => get('/ask', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    await expectEnvelope(await post(big), 413, 'payload_too_large');
    // Without a Content-Length: the handler finds out as it reads, and drains the rest before it answers.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < big.length; i += 64 * 1024) controller.enqueue(big.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
    await expectEnvelope(await post(stream), 413, 'payload_too_large');
    // The connection is still good for the next request: a POST, which Wrangler's local runtime never retries. (When
    // the handler stopped reading at the limit, it answered the next one 503, "Your worker restarted mid-request".)
    expect((await get('/donate', { method: 'POST' })).status).toBe(402);
  });

  it('POST /donate is always 402 with the payment headers', async () => {
    const res = await get('/donate', { method: 'POST' });
    expect(res.status).toBe(402);
    expect(res.headers.get('www-authenticate')).toMatch(/^Payment /);
    expect(res.headers.get('payment-required')).toBeTruthy();
    expect(res.headers.get('x-payment-required')).toBeTruthy();
    expect(res.headers.get('link')).toMatch(/rel="?payment/);
    await res.arrayBuffer();
  });

  it('MCP: the official SDK client connects, lists the tools and searches', async () => {
    const client = new Client({ name: `contract-${host}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_episodes', 'get_episode', 'get_latest_episode', 'list_episodes', 'subscribe_via_rss']));
      const result = (await client.callTool({ name: 'search_episodes', arguments: { query: 'varroa mites', limit: 2 } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toMatch(/Hive/);
      const transcript = (await client.callTool({ name: 'get_transcript', arguments: { id: 3, start: 300, end: 330 } })) as CallToolResult;
      expect(transcript.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('OAuth: the PKCE authorization-code flow with oauth4webapi, and the token works as a bearer', async () => {
    const c = await oauthClient(server);
    const { verifier, params, redirectUri } = await pkceAuthorization(c);
    const tokens = await oauth.processAuthorizationCodeResponse(c.as, c.client, await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, verifier, c.options));
    expect(tokens.expires_in).toBe(3600);
    const res = await get('/api/search?q=bees', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expectEnvelope(await get('/api/search?q=bees', { headers: { Authorization: 'Bearer not-a-token' } }), 401, 'invalid_token');
    // A code is single use (on Workers, through the single-use Durable Object): the replay fails, and the token
    // the code minted is revoked with it.
    const replay = await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, verifier, c.options);
    expect(replay.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(await replay.json()).error.code).toBe('invalid_grant');
    await expectEnvelope(await get('/api/search?q=bees', { headers: { Authorization: `Bearer ${tokens.access_token}` } }), 401, 'invalid_token');
  });

  it('OAuth: an untrusted redirect URI gets an error from the service, never a redirect', async () => {
    const res = await get('/oauth/authorize?response_type=code&client_id=public&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&code_challenge=abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq&code_challenge_method=S256');
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    await res.arrayBuffer();
  });
});

describe.each(['node', 'cloudflare'] as HostName[])('the contract\'s rate limit on %s', (host) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHost(host, { distDir: inject('distDir') });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('60 requests a minute per client, on documents and API alike, then 429 with Retry-After', async () => {
    for (let i = 1; i <= 60; i++) {
      const res = await fetch(`${server.url}${i % 2 ? '/episodes.json' : '/status'}`);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
      await res.arrayBuffer();
    }
    const limited = await fetch(`${server.url}/api/search?q=bees`);
    const error = await expectEnvelope(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(error.hint).toBeTruthy();
    // The website's own files are not counted, here as on a CDN: with the budget spent, a listener still gets the
    // page and seeks in the audio (which on Cloudflare the Worker answers, for its ranges).
    for (const [path, range] of [['/episodes/003-beekeeping/', undefined], ['/audio/003-beekeeping.mp3', 'bytes=0-99'], ['/audio/003-beekeeping.mp3', 'bytes=5000-5099']] as const) {
      const res = await fetch(`${server.url}${path}`, range ? { headers: { range } } : {});
      expect(res.status, `${path} ${range ?? ''}`).toBe(range ? 206 : 200);
      expect(res.headers.get('x-ratelimit-remaining'), path).toBeNull();
      await res.arrayBuffer();
    }
    await expectEnvelope(await fetch(`${server.url}/episodes.json`), 429, 'rate_limited');
  });
});
