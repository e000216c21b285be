/** The MCP module's pure parts: message classification, negotiation, Accept, schemas and documents. */
import { describe, expect, it } from 'vitest';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { classify, negotiateVersion, supportsBatch, argumentErrorsAreToolErrors } from '../../contract/mcp/protocol.ts';
import { parseAccept } from '../../functions/mcp/http.ts';
import { TOOLS, TOOL_LIST, toJsonSchema } from '../../contract/mcp/tools.ts';
import { IMPLEMENTATIONS } from '../../functions/mcp/tools.ts';
import { buildAiCatalog, buildManifest, buildServerCard, identityFromService, listTools } from '../../contract/mcp/documents.ts';
import { cuesInWindow, toSeconds } from '../../functions/mcp/transcript.ts';
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
