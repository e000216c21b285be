/**
 * The official MCP TypeScript SDK client (Client + StreamableHTTPClientTransport) against the real server: the
 * way agents actually connect. The client validates every structuredContent against the tool's outputSchema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from '../helpers/server.ts';
import { TOOL_LIST } from '../../contract/mcp/tools.ts';
import { ServiceDataSchema, type ServiceData } from '../../contract/schemas/service-data.ts';
import { SearchResponseSchema } from '../../contract/schemas/search.ts';
import { parseSrt } from '../../src/content/srt.ts';
import { startMcpServer } from './helpers.ts';

let server: RunningServer;
let client: Client;
let transport: StreamableHTTPClientTransport;
let service: ServiceData;
const errors: Error[] = [];

beforeAll(async () => {
  server = await startMcpServer();
  service = ServiceDataSchema.parse(await (await fetch(`${server.url}/service.json`)).json());
  client = new Client({ name: 'sdk-client-test', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('connecting', () => {
  it('negotiates the latest revision and learns who the server is', () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'deep-field', title: service.show.title, version: service.version });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(client.getInstructions()).toContain('search_episodes');
  });

  it('is stateless: no session id, and ping answers {}', async () => {
    expect(transport.sessionId).toBeUndefined();
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe('tools/list', () => {
  it('lists exactly the registry, each with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_LIST.map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['search_episodes', 'get_episode', 'get_latest_episode', 'list_episodes', 'subscribe_via_rss', 'get_transcript']),
    );
    for (const tool of tools) {
      expect(tool.description, tool.name).toBe(TOOL_LIST.find((t) => t.name === tool.name)!.description);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === 'search_episodes')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(search.inputSchema.properties?.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
  });
});

describe('tools/call', () => {
  beforeAll(() => client.listTools()); // so the client validates structuredContent against each outputSchema

  it('get_episode: the full episode with chapters, links and transcript URL', async () => {
    const expected = service.episodes.find((e) => e.id === 3)!;
    const result = await call('get_episode', { id: 3 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(textOf(result)).toContain(expected.title);
    expect(textOf(result)).toContain(expected.url);
    expect(expected.transcript).toMatch(/\/transcripts\/.+\.srt$/);
  });

  it('get_episode: an unknown id is a tool error with a clear message, not a protocol error', async () => {
    const result = await call('get_episode', { id: 999 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(/No episode has id 999\. Episode numbers go from 1 to 13/);
  });

  it('get_latest_episode: the highest id', async () => {
    const latest = service.episodes.reduce((a, b) => (b.id > a.id ? b : a));
    const result = await call('get_latest_episode');
    expect(result.structuredContent).toMatchObject({ id: latest.id, title: latest.title, url: latest.url });
    expect(textOf(result)).toContain(latest.title);
  });

  it('list_episodes: newest first, paged, with total', async () => {
    const all = await call('list_episodes', { limit: 50 });
    const ids = (all.structuredContent!.episodes as Array<{ id: number }>).map((e) => e.id);
    expect(ids).toEqual(service.episodes.map((e) => e.id).sort((a, b) => b - a));
    expect(all.structuredContent).toMatchObject({ total: service.episodes.length, count: service.episodes.length, has_more: false });

    const season1 = service.episodes.filter((e) => e.season === 1).map((e) => e.id).sort((a, b) => b - a);
    const page = await call('list_episodes', { season: 1, limit: 3, offset: 2 });
    expect(page.structuredContent).toMatchObject({ total: season1.length, count: 3, offset: 2, limit: 3, has_more: true, season: 1 });
    expect((page.structuredContent!.episodes as Array<{ id: number }>).map((e) => e.id)).toEqual(season1.slice(2, 5));

    const defaults = await call('list_episodes');
    expect(defaults.structuredContent).toMatchObject({ limit: 10, offset: 0, count: Math.min(10, service.episodes.length) });
  });

  it('subscribe_via_rss: the feed, the platforms and a one-line instruction', async () => {
    const result = await call('subscribe_via_rss');
    expect(result.structuredContent).toEqual({
      title: service.show.title,
      rss: service.urls.rss,
      website: service.urls.home,
      platforms: service.show.platforms,
      instruction: expect.stringContaining(service.urls.rss!),
    });
    expect((result.structuredContent!.instruction as string).split('\n')).toHaveLength(1);
    expect(textOf(result)).toContain(service.show.platforms.spotify!);
  });

  it('get_transcript: the exact cues of the published SRT in a window, with timestamps', async () => {
    const episode = service.episodes.find((e) => e.id === 3)!;
    const srt = await (await fetch(`${server.url}${new URL(episode.transcript!).pathname}`)).text();
    const cues = parseSrt(srt).cues;
    const expected = cues.filter((c) => c.end > 60 && c.start < 120);
    expect(expected.length).toBeGreaterThan(0);

    const result = await call('get_transcript', { id: 3, start: 60, end: '02:00' });
    expect(result.structuredContent).toMatchObject({ id: 3, title: episode.title, transcript: episode.transcript, start: 60, end: 120, count: expected.length });
    const got = result.structuredContent!.cues as Array<{ start: number; end: number; timestamp: string; text: string }>;
    expect(got.map((c) => c.text)).toEqual(expected.map((c) => c.text));
    expect(got[0]!.timestamp).toMatch(/^00:0[01]:\d\d$/);
    expect(textOf(result)).toContain(`[${got[0]!.timestamp}] ${got[0]!.text}`);

    const whole = await call('get_transcript', { id: 3 });
    expect(whole.structuredContent).toMatchObject({ count: cues.length, start: 0, end: null });
  });

  it('get_transcript: an episode without a transcript, or a backwards window, is a tool error', async () => {
    const none = service.episodes.find((e) => !e.transcript)!;
    const result = await call('get_transcript', { id: none.id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('has no transcript');
    const backwards = await call('get_transcript', { id: 3, start: 90, end: 30 });
    expect(backwards.isError).toBe(true);
    expect(textOf(backwards)).toContain('must be after start');
  });

  it('search_episodes: the same ranking as /api/search, with snippets, timestamps and URLs', async () => {
    const result = await call('search_episodes', { query: 'bees hive', limit: 3 });
    expect(result.isError).toBeFalsy();
    const api = SearchResponseSchema.parse(await (await fetch(`${server.url}/api/search?q=${encodeURIComponent('bees hive')}&limit=3`)).json());
    expect(result.structuredContent).toMatchObject({ query: 'bees hive', count: api.count, total: api.total });
    expect(result.structuredContent!.results).toEqual(api.results);
    const top = api.results[0]!;
    expect(top.id).toBe(3);
    expect(top.snippet).toBeTruthy();
    expect(textOf(result)).toContain(top.url);
  });

  it('search_episodes: a question is ranked as /ask ranks it', async () => {
    const question = 'how do bees decide where to live?';
    const result = await call('search_episodes', { query: question, limit: 3 });
    const ask = await (await fetch(`${server.url}/ask?q=${encodeURIComponent(question)}&limit=3`)).json();
    expect(result.structuredContent!.results).toEqual(ask.results);
  });

  it('search_episodes: nothing found is a normal, empty result', async () => {
    const result = await call('search_episodes', { query: 'zzzqqqxxy' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ count: 0, total: 0, results: [] });
    expect(textOf(result)).toContain('No episode matches');
  });

  it('an unknown tool is a protocol error -32602', async () => {
    const err = await call('delete_everything').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((err as McpError).message).toContain('Unknown tool: delete_everything');
  });

  it('bad arguments are a tool error that names the field and the allowed range (2025-11-25)', async () => {
    const limit = await call('list_episodes', { limit: 99 });
    expect(limit.isError).toBe(true);
    expect(textOf(limit)).toContain('limit must be an integer from 1 to 50 (default 10)');

    const missing = await call('search_episodes', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('query is required');

    const wrongType = await call('get_episode', { id: 'three' });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toContain('id must be an episode number');

    const badTime = await call('get_transcript', { id: 3, start: 'soon' });
    expect(textOf(badTime)).toContain('start must be seconds');
  });
});

describe('a bearer token', () => {
  it('is accepted on POST /mcp and changes nothing', async () => {
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'public' }),
    });
    expect(res.status).toBe(200);
    const { access_token: token } = (await res.json()) as { access_token: string };
    const authed = new Client({ name: 'sdk-client-test-bearer', version: '1.0.0' });
    await authed.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const result = (await authed.callTool({ name: 'get_episode', arguments: { id: 1 } })) as CallToolResult;
      const anonymous = await call('get_episode', { id: 1 });
      expect(result.structuredContent).toEqual(anonymous.structuredContent);
    } finally {
      await authed.close();
    }
  });
});

describe('the whole session', () => {
  // After initialized the client opens a GET stream; the server's 405 tells it there is none, which is no error.
  it('raised no transport error', () => {
    expect(errors).toEqual([]);
  });
});
