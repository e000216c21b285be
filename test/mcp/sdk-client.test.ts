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
import { PROMPT_LIST } from '../../contract/mcp/prompts.ts';
import { RESOURCE_TEMPLATES, TRANSCRIPT_PAGE_CHARS } from '../../contract/mcp/resources.ts';
import { MCP_APP_MIME_TYPE, PLAYER_META_KEY, PLAYER_URI, type PlayerData } from '../../contract/mcp/app.ts';
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
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    });
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
    expect(result.structuredContent).toMatchObject({ has_more: false, next_start: null });
    const got = result.structuredContent!.cues as Array<{ start: number; end: number; timestamp: string; text: string }>;
    expect(got.map((c) => c.text)).toEqual(expected.map((c) => c.text));
    expect(got[0]!.timestamp).toMatch(/^00:0[01]:\d\d$/);
    expect(textOf(result)).toContain(`[${got[0]!.timestamp}] ${got[0]!.text}`);
  });

  it('get_transcript: a whole long transcript comes a page at a time, and the pages add up to the SRT', async () => {
    const episode = service.episodes.find((e) => e.id === 3)!;
    const cues = parseSrt(await (await fetch(`${server.url}${new URL(episode.transcript!).pathname}`)).text()).cues;
    const first = await call('get_transcript', { id: 3 });
    const data = first.structuredContent as { count: number; has_more: boolean; next_start: number | null; cues: Array<{ text: string; start: number }> };
    expect(data.has_more).toBe(true);
    expect(data.count).toBeLessThan(cues.length);
    expect(data.next_start).toBe(cues[data.count]!.start);
    expect(textOf(first)).toContain(`call get_transcript with id 3 and start ${data.next_start}`);
    expect(textOf(first).length).toBeLessThan(TRANSCRIPT_PAGE_CHARS + 1000);
    const texts = data.cues.map((c) => c.text);
    let next = data.next_start;
    while (next !== null) {
      const page = (await call('get_transcript', { id: 3, start: next })).structuredContent as typeof data;
      texts.push(...page.cues.map((c) => c.text));
      next = page.next_start;
    }
    expect(texts).toEqual(cues.map((c) => c.text));
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

  it('get_transcript: a time past 1,000 hours is an argument error the model can correct, not a server failure', async () => {
    for (const args of [{ start: `${'9'.repeat(310)}:00:00` }, { end: '1000:00:01' }, { start: 3_600_001 }]) {
      const result = await call('get_transcript', { id: 3, ...args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(/(start|end) must be seconds from the start .*at most 1000 hours/);
      expect(textOf(result)).not.toContain('server side');
    }
    expect((await call('get_transcript', { id: 3, start: '999:59:59' })).isError).toBeFalsy();
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
    // The other moments of the episode are in the text too, after the best one.
    const [, second] = (ask.results[0] as { moments: Array<{ timestamp: string; url: string }> }).moments;
    expect(second).toBeDefined();
    expect(textOf(result)).toContain(`also at ${second!.timestamp}: ${second!.url}`);
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
    expect((err as McpError).message).toContain('Unknown tool: "delete_everything"');
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

describe('resources', () => {
  it('resources/list pages through the show, the player and every episode, transcript and chapters', async () => {
    const first = await client.listResources();
    expect(first.nextCursor).toBeTruthy();
    const all = [...first.resources];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.listResources({ cursor });
      all.push(...page.resources);
      cursor = page.nextCursor;
    }
    const uris = all.map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris.slice(0, 2)).toEqual(['podcast://show', PLAYER_URI]);
    for (const e of service.episodes) {
      expect(uris).toContain(`podcast://episodes/${e.id}`);
      expect(uris.includes(`podcast://episodes/${e.id}/transcript`)).toBe(Boolean(e.transcript));
      expect(uris.includes(`podcast://episodes/${e.id}/chapters`)).toBe(Boolean(e.chapters?.length));
    }
    for (const r of all) expect(r.name && r.description && r.mimeType, r.uri).toBeTruthy();
    const err = await client.listResources({ cursor: 'nonsense' }).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('resources/templates/list names the addresses with parameters', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(RESOURCE_TEMPLATES.map((t) => t.uriTemplate));
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('podcast://episodes/{id}/transcript{?page}');
  });

  it('resources/read: an episode, its chapters and the show as JSON', async () => {
    const expected = service.episodes.find((e) => e.id === 3)!;
    const { contents } = await client.readResource({ uri: 'podcast://episodes/3' });
    expect(contents[0]).toMatchObject({ uri: 'podcast://episodes/3', mimeType: 'application/json' });
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(JSON.parse(JSON.stringify(expected)));

    const withChapters = service.episodes.find((e) => e.chapters?.length)!;
    const chapters = JSON.parse(((await client.readResource({ uri: `podcast://episodes/${withChapters.id}/chapters` })).contents[0] as { text: string }).text);
    expect(chapters.chapters.map((c: { title: string }) => c.title)).toEqual(withChapters.chapters!.map((c) => c.title));
    expect(chapters.chapters[1].url).toMatch(/\?t=\d+$/);

    const show = JSON.parse(((await client.readResource({ uri: 'podcast://show' })).contents[0] as { text: string }).text);
    expect(show).toMatchObject({ title: service.show.title, rss: service.urls.rss });
    expect(show.episodes).toHaveLength(service.episodes.length);
  });

  it('resources/read: a transcript as timestamped text, paged, and the pages add up to the SRT', async () => {
    const episode = service.episodes.find((e) => e.id === 3)!;
    const cues = parseSrt(await (await fetch(`${server.url}${new URL(episode.transcript!).pathname}`)).text()).cues;
    const lines: string[] = [];
    let uri: string | undefined = 'podcast://episodes/3/transcript';
    let pages = 0;
    while (uri) {
      const [content] = (await client.readResource({ uri })).contents as Array<{ uri: string; mimeType: string; text: string; _meta?: { next?: string; pages: number } }>;
      expect(content).toMatchObject({ uri, mimeType: 'text/plain' });
      expect(content!.text.length).toBeLessThan(TRANSCRIPT_PAGE_CHARS + 1000);
      lines.push(...content!.text.split('\n').filter((l) => /^\[\d\d:\d\d:\d\d\] /.test(l)));
      pages++;
      if (content!._meta?.next) expect(content!.text).toContain(`read ${content!._meta.next}`);
      uri = content!._meta?.next;
    }
    expect(pages).toBeGreaterThan(1);
    expect(lines.map((l) => l.slice(11))).toEqual(cues.map((c) => c.text));
  });

  it('resources/read: an unknown address, episode or page is "Resource not found" (-32002)', async () => {
    for (const uri of ['podcast://episodes/999', 'podcast://episodes/3/transcript?page=99', 'podcast://nothing', 'https://example.com/']) {
      const err = await client.readResource({ uri }).catch((e: unknown) => e);
      expect(err, uri).toBeInstanceOf(McpError);
      expect((err as McpError).code, uri).toBe(-32002);
    }
    const none = service.episodes.find((e) => !e.transcript)!;
    const err = await client.readResource({ uri: `podcast://episodes/${none.id}/transcript` }).catch((e: unknown) => e);
    expect((err as McpError).message).toContain('has no transcript');
  });
});

describe('prompts', () => {
  it('prompts/list: the registry', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(PROMPT_LIST.map((p) => p.name));
    expect(prompts.map((p) => p.name)).toEqual(['summarize_episode', 'find_topic', 'quote_moment']);
    for (const p of prompts) expect(p.description).toBeTruthy();
  });

  it('summarize_episode embeds the episode and its transcript, and points at the other pages', async () => {
    const episode = service.episodes.find((e) => e.id === 3)!;
    const { messages } = await client.getPrompt({ name: 'summarize_episode', arguments: { id: '3' } });
    const resources = messages.filter((m) => m.content.type === 'resource').map((m) => (m.content as { resource: { uri: string } }).resource.uri);
    expect(resources).toEqual(['podcast://episodes/3', 'podcast://episodes/3/transcript']);
    const last = messages.at(-1)!.content as { type: string; text: string };
    expect(last.text).toContain(episode.title);
    expect(last.text).toContain('podcast://episodes/3/transcript?page=2');
  });

  it('find_topic carries the search results; quote_moment the transcript lines around the best moment', async () => {
    const find = await client.getPrompt({ name: 'find_topic', arguments: { topic: 'bees hive' } });
    const findText = (find.messages[0]!.content as { text: string }).text;
    expect(findText).toContain('bees hive');
    expect(findText).toContain(service.episodes.find((e) => e.id === 3)!.url);

    const quote = await client.getPrompt({ name: 'quote_moment', arguments: { topic: 'bees hive', id: '3' } });
    const quoteText = (quote.messages[0]!.content as { text: string }).text;
    expect(quoteText).toMatch(/\[\d\d:\d\d:\d\d\] /);
    expect(quoteText).toMatch(/\?t=\d+/);

    // Episode 13 has no transcript: its chapter "Learning openings ..." places it, but there are no words to quote.
    const noWords = await client.getPrompt({ name: 'quote_moment', arguments: { topic: 'chess openings', id: '13' } });
    const noWordsText = (noWords.messages[0]!.content as { text: string }).text;
    expect(noWordsText).toContain('do not invent a quote');
    expect(noWordsText).not.toContain('Quote, word for word');
  });

  it('bad prompt names and arguments are -32602 with a clear message', async () => {
    const unknown = await client.getPrompt({ name: 'nope' }).catch((e: unknown) => e);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    const missing = await client.getPrompt({ name: 'summarize_episode', arguments: {} }).catch((e: unknown) => e);
    expect((missing as McpError).message).toContain('id is required');
    for (const id of ['x', '0x1', '1e0', '+1', '1.0', '0']) {
      const badId = await client.getPrompt({ name: 'summarize_episode', arguments: { id } }).catch((e: unknown) => e);
      expect((badId as McpError).message, id).toContain('id must be an episode number');
    }
    expect((await client.getPrompt({ name: 'summarize_episode', arguments: { id: ' #3 ' } })).messages.length).toBeGreaterThan(0);
  });

  it('completion/complete suggests episode numbers', async () => {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize_episode' }, argument: { name: 'id', value: '1' } });
    expect(result.completion.values).toEqual(expect.arrayContaining(['1', '10', '11', '12', '13']));
    expect(result.completion.values.every((v) => v.startsWith('1'))).toBe(true);
  });
});

describe('the player (MCP Apps)', () => {
  it('search and episode tools name the player; it is a text/html;profile=mcp-app resource with a strict CSP', async () => {
    const { tools } = await client.listTools();
    const withUi = tools.filter((t) => (t._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri === PLAYER_URI).map((t) => t.name);
    expect(withUi).toEqual(['search_episodes', 'get_episode', 'get_latest_episode']);

    const { contents } = await client.readResource({ uri: PLAYER_URI });
    const html = contents[0] as { uri: string; mimeType: string; text: string; _meta: { ui: { csp: { resourceDomains: string[]; connectDomains: string[] } } } };
    expect(html).toMatchObject({ uri: PLAYER_URI, mimeType: MCP_APP_MIME_TYPE });
    expect(html._meta.ui.csp.connectDomains).toEqual([]);
    expect(html._meta.ui.csp.resourceDomains).toContain(new URL(service.show.siteUrl).origin);
    expect(html.text).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'/);
    expect(html.text).not.toMatch(/<script[^>]+src=|\son\w+=/);
  });

  it('a search result carries the moment and the transcript lines around it; the text is unchanged', async () => {
    const result = await call('search_episodes', { query: 'bees hive', limit: 3 });
    const player = (result._meta as Record<string, PlayerData>)[PLAYER_META_KEY]!;
    const top = (result.structuredContent!.results as Array<{ id: number; start?: number; audio?: string }>)[0]!;
    expect(player.items[0]).toMatchObject({ id: top.id, start: top.start, audio: top.audio });
    expect(player.items[0]!.lines.filter((l) => l.current)).toHaveLength(1);
    expect(player.items[0]!.url).toMatch(/\?t=\d+$/);
    expect(textOf(result)).not.toContain(PLAYER_META_KEY);

    const episode = await call('get_episode', { id: 3 });
    expect((episode._meta as Record<string, PlayerData>)[PLAYER_META_KEY]!.items[0]).toMatchObject({ id: 3, start: 0 });
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
