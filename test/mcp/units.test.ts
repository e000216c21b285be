/** The MCP module's pure parts: message classification, negotiation, Accept, schemas and documents. */
import { describe, expect, it } from 'vitest';
import { ListPromptsResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { classify, negotiateVersion, supportsBatch, argumentErrorsAreToolErrors } from '../../contract/mcp/protocol.ts';
import { parseAccept } from '../../functions/mcp/http.ts';
import { TOOLS, TOOL_LIST, toJsonSchema } from '../../contract/mcp/tools.ts';
import { IMPLEMENTATIONS } from '../../functions/mcp/tools.ts';
import { buildAiCatalog, buildManifest, buildServerCard, identityFromService, listTools } from '../../contract/mcp/documents.ts';
import { cueLine, cuesInWindow, pageCues, toSeconds } from '../../functions/mcp/transcript.ts';
import { TRANSCRIPT_PAGE_CHARS, decodeCursor, encodeCursor, paginate, parseResourceUri, uris } from '../../contract/mcp/resources.ts';
import { PROMPT_LIST } from '../../contract/mcp/prompts.ts';
import { playerHtml } from '../../contract/mcp/app.ts';
import { McpManifestSchema, McpServerCardSchema } from '../../contract/schemas/mcp.ts';
import { AiCatalogSchema } from '../../contract/schemas/ai-catalog.ts';
import type { ServiceData } from '../../contract/schemas/service-data.ts';

const service = {
  version: '2.3.4',
  generated_at: '2026-01-01T00:00:00.000Z',
  show: {
    title: 'Café Crème Radio',
    description: 'A show.',
    author: 'Someone',
    language: 'fr',
    siteUrl: 'https://pod.example',
    artwork: 'https://pod.example/artwork.png',
    topics: [],
    platforms: {},
    tips: { network: 'base-sepolia' },
  },
  urls: { mcp: 'https://pod.example/mcp', docs: 'https://pod.example/docs.md', rss: 'https://pod.example/rss.xml' },
  episodes: [],
} satisfies ServiceData;

describe('classify', () => {
  it('tells requests, notifications, responses and invalid messages apart', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({ kind: 'request', id: 1, method: 'ping', params: undefined });
    expect(classify({ jsonrpc: '2.0', id: 'x', method: 'a', params: { b: 1 } })).toMatchObject({ kind: 'request', id: 'x', params: { b: 1 } });
    expect(classify({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ kind: 'notification', method: 'notifications/initialized' });
    expect(classify({ jsonrpc: '2.0', id: 1, result: {} })).toEqual({ kind: 'response' });
    expect(classify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } })).toEqual({ kind: 'response' });
    expect(classify({ jsonrpc: '2.0', id: 1, result: {}, error: {} })).toMatchObject({ kind: 'invalid', id: 1 });
    expect(classify({ jsonrpc: '2.0', id: null, method: 'ping' })).toMatchObject({ kind: 'invalid', id: null });
    expect(classify({ jsonrpc: '2.0', id: 2.5, method: 'ping' })).toMatchObject({ kind: 'invalid', id: null });
    expect(classify({ jsonrpc: '2.0', id: 3, method: '' })).toMatchObject({ kind: 'invalid', id: 3 });
    expect(classify({ jsonrpc: '2.0', id: 3, method: 'x', params: 7 })).toMatchObject({ kind: 'invalid', id: 3 });
    expect(classify({ id: 4, method: 'ping' })).toMatchObject({ kind: 'invalid', id: 4, reason: expect.stringContaining('jsonrpc') });
    expect(classify([1])).toMatchObject({ kind: 'invalid', id: null });
    expect(classify('x')).toMatchObject({ kind: 'invalid' });
  });
});

describe('revisions', () => {
  it('negotiates down to what it speaks, and knows what changed', () => {
    expect(negotiateVersion('2025-06-18')).toBe('2025-06-18');
    expect(negotiateVersion('2024-11-05')).toBe('2025-11-25');
    expect(negotiateVersion(42)).toBe('2025-11-25');
    expect(supportsBatch('2025-03-26')).toBe(true);
    expect(supportsBatch('2025-06-18')).toBe(false);
    expect(argumentErrorsAreToolErrors('2025-06-18')).toBe(false);
    expect(argumentErrorsAreToolErrors('2025-11-25')).toBe(true);
  });
});

describe('parseAccept', () => {
  it('applies media ranges, wildcards and q-values', () => {
    expect(parseAccept(null).accepts('application/json')).toBe(true);
    expect(parseAccept('application/json, text/event-stream').accepts('application/json')).toBe(true);
    expect(parseAccept('application/*').accepts('application/json')).toBe(true);
    expect(parseAccept('text/event-stream').accepts('application/json')).toBe(false);
    expect(parseAccept('application/json;q=0, */*').accepts('application/json')).toBe(false);
    expect(parseAccept('*/*').explicit('text/event-stream')).toBe(false);
    expect(parseAccept('text/event-stream').explicit('text/event-stream')).toBe(true);
  });
});

describe('the registry', () => {
  it('has an implementation for every tool, under its own name', () => {
    for (const [key, spec] of Object.entries(TOOLS)) expect(spec.name).toBe(key);
    expect(Object.keys(IMPLEMENTATIONS).sort()).toEqual(Object.keys(TOOLS).sort());
  });

  it('publishes clean JSON Schemas: no $schema, no ±2^53 integer bounds', () => {
    for (const spec of TOOL_LIST) {
      for (const schema of [toJsonSchema(spec.input, 'input'), toJsonSchema(spec.output, 'output')]) {
        const text = JSON.stringify(schema);
        expect(schema.type).toBe('object');
        expect(text).not.toContain('$schema');
        expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
      }
    }
    expect(toJsonSchema(TOOLS.list_episodes.input, 'input')).toMatchObject({
      properties: { offset: { type: 'integer', minimum: 0, maximum: 10000, default: 0 }, season: { type: 'integer', minimum: 1 } },
    });
    expect(toJsonSchema(TOOLS.get_episode.input, 'input')).toMatchObject({ required: ['id'] });
  });

  it('tools/list entries are valid for every revision, with structured output only from 2025-06-18', () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25'] as const) {
      const { tools } = ListToolsResultSchema.parse({ tools: listTools(version) });
      expect(tools.map((t) => t.name)).toEqual(TOOL_LIST.map((t) => t.name));
      expect(tools.every((t) => (version === '2025-03-26' ? t.outputSchema === undefined : t.outputSchema !== undefined))).toBe(true);
    }
  });
});

describe('documents', () => {
  it('manifest, server card and AI catalog come from the registry and the service data', () => {
    const id = identityFromService(service);
    expect(id).toMatchObject({ name: 'cafe-creme-radio', endpoint: 'https://pod.example/mcp', siteUrl: 'https://pod.example' });
    const manifest = McpManifestSchema.parse(buildManifest(id));
    expect(manifest.tools).toEqual(TOOL_LIST.map(({ name, description }) => ({ name, description })));
    const card = McpServerCardSchema.parse(buildServerCard(id));
    expect(card).toMatchObject({ name: 'cafe-creme-radio', version: '2.3.4', serverUrl: 'https://pod.example/mcp', language: 'fr' });
    expect(card.tools.map((t) => t.inputSchema)).toEqual(TOOL_LIST.map((t) => toJsonSchema(t.input, 'input')));
    const catalog = AiCatalogSchema.parse(buildAiCatalog(id, ['a'], service.generated_at));
    expect(catalog.entries[0]).toMatchObject({ url: 'https://pod.example/mcp/server-card', identifier: 'urn:air:pod.example:mcp:cafe-creme-radio' });
  });

  it('a run-time SITE_URL rebases the addresses', () => {
    const id = identityFromService(service, 'https://proxy.example/pod/');
    expect(id).toMatchObject({ endpoint: 'https://proxy.example/pod/mcp', docs: 'https://proxy.example/pod/docs.md', siteUrl: 'https://proxy.example/pod' });
  });
});

describe('transcript windows', () => {
  const cues = [
    { start: 0, end: 4, text: 'a' },
    { start: 4.5, end: 9, text: 'b' },
    { start: 9.2, end: 15, text: 'c' },
  ];
  it('keeps the cues that overlap the window, so no quote is cut off', () => {
    expect(cuesInWindow(cues, 0, undefined).map((c) => c.text)).toEqual(['a', 'b', 'c']);
    expect(cuesInWindow(cues, 5, 10).map((c) => c.text)).toEqual(['b', 'c']);
    expect(cuesInWindow(cues, 9, 9.1).map((c) => c.text)).toEqual([]);
    expect(cuesInWindow(cues, 20, undefined)).toEqual([]);
  });
  it('reads seconds and timestamps', () => {
    expect(toSeconds(90)).toBe(90);
    expect(toSeconds('01:30')).toBe(90);
    expect(toSeconds('1:02:03')).toBe(3723);
    expect(toSeconds(undefined)).toBeUndefined();
  });
});

describe('resources', () => {
  it('parses the podcast:// addresses it publishes and nothing else', () => {
    expect(parseResourceUri('podcast://show')).toEqual({ kind: 'show' });
    expect(parseResourceUri('podcast://episodes/3')).toEqual({ kind: 'episode', id: 3 });
    expect(parseResourceUri('podcast://episodes/3/transcript')).toEqual({ kind: 'transcript', id: 3, page: 1 });
    expect(parseResourceUri('podcast://episodes/3/transcript?page=2')).toEqual({ kind: 'transcript', id: 3, page: 2 });
    expect(parseResourceUri('podcast://episodes/12/chapters')).toEqual({ kind: 'chapters', id: 12 });
    for (const bad of ['podcast://episodes/0', 'podcast://episodes/03', 'podcast://episodes/3/chapters?page=2', 'podcast://episodes/3/transcript?page=0', 'podcast://episodes/x', 'https://pod.example/']) {
      expect(parseResourceUri(bad), bad).toBeUndefined();
    }
    expect(uris.transcript(3, 1)).toBe('podcast://episodes/3/transcript');
    expect(uris.transcript(3, 2)).toBe('podcast://episodes/3/transcript?page=2');
  });

  it('cursors round-trip and garbage is refused', () => {
    for (const n of [0, 25, 9999]) expect(decodeCursor(encodeCursor(n))).toBe(n);
    expect(decodeCursor('nonsense')).toBeUndefined();
    expect(decodeCursor(7)).toBeUndefined();
  });

  it('pages lines within the budget, never splitting a line', () => {
    expect(paginate([4, 4, 4], 10)).toEqual([{ from: 0, to: 2 }, { from: 2, to: 3 }]);
    expect(paginate([50, 1], 10)).toEqual([{ from: 0, to: 1 }, { from: 1, to: 2 }]);
    expect(paginate([], 10)).toEqual([]);
    const cues = Array.from({ length: 500 }, (_, i) => ({ start: i * 5, end: i * 5 + 4, text: `line ${i} `.repeat(8) }));
    const pages = pageCues(cues);
    expect(pages.flat()).toEqual(cues);
    for (const page of pages) expect(page.map(cueLine).join('\n').length).toBeLessThanOrEqual(TRANSCRIPT_PAGE_CHARS);
  });
});

describe('prompts and the player page', () => {
  it('prompt entries are valid for the SDK, and the manifest and card list the same ones', () => {
    ListPromptsResultSchema.parse({ prompts: PROMPT_LIST });
    const id = identityFromService(service);
    const names = PROMPT_LIST.map((p) => p.name);
    expect((buildManifest(id) as unknown as { prompts: Array<{ name: string }> }).prompts.map((p) => p.name)).toEqual(names);
    expect((buildServerCard(id) as unknown as { prompts: Array<{ name: string }> }).prompts.map((p) => p.name)).toEqual(names);
    expect(buildManifest(id).methods).toEqual(expect.arrayContaining(['resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get']));
  });

  it('the player page is self-contained: hashed inline script and style, no handlers in markup, no network', () => {
    const html = playerHtml({ title: 'A "show" <b>', lang: 'en', scriptHash: 'sha256-AAA', styleHash: 'sha256-BBB', mediaOrigins: ['https://pod.example'] });
    expect(html).toContain(`content="default-src 'none'; script-src 'sha256-AAA'; style-src 'sha256-BBB'; media-src https://pod.example; img-src 'none'; connect-src 'none'`);
    expect(html).toContain('<title>A &quot;show&quot; &lt;b&gt; player</title>');
    expect(html).not.toMatch(/\son[a-z]+=|<script[^>]*\ssrc=|<link\b|innerHTML|eval\(|new Function/);
  });
});
