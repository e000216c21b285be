/**
 * The MCP discovery documents on the real server: the manifest (GET /mcp, GET /.well-known/mcp), the server card
 * (prerendered, and at the server-card draft's <endpoint>/server-card) and the AI catalog pointing at it. All
 * must match the one registry and what tools/list answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManifestSchema, McpServerCardSchema } from '../../contract/schemas/mcp.ts';
import { AiCatalogSchema } from '../../contract/schemas/ai-catalog.ts';
import { ServiceDataSchema, type ServiceData } from '../../contract/schemas/service-data.ts';
import { TOOL_LIST } from '../../contract/mcp/tools.ts';
import { listTools } from '../../contract/mcp/documents.ts';
import { LATEST_PROTOCOL_VERSION, METHODS } from '../../contract/mcp/protocol.ts';
import type { RunningServer } from '../helpers/server.ts';
import { post, request, startMcpServer } from './helpers.ts';

let server: RunningServer;
let service: ServiceData;

beforeAll(async () => {
  server = await startMcpServer();
  service = ServiceDataSchema.parse(await (await fetch(`${server.url}/service.json`)).json());
});
afterAll(() => server?.stop());

const getJson = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, { headers });
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
  return res.json();
};

async function liveTools() {
  const res = await post(`${server.url}/mcp`, request('tools/list'), { 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION });
  return (await res.json()).result.tools as Array<{ name: string; description: string; inputSchema: unknown; outputSchema?: unknown }>;
}

describe('the MCP manifest', () => {
  it('GET /mcp and GET /.well-known/mcp answer the same valid manifest', async () => {
    const a = McpManifestSchema.parse(await getJson('/mcp'));
    const b = McpManifestSchema.parse(await getJson('/.well-known/mcp', { Accept: 'application/json' }));
    expect(b).toEqual(a);
    expect(a).toMatchObject({
      server: { name: 'deep-field', version: service.version },
      protocolVersion: LATEST_PROTOCOL_VERSION,
      transport: 'streamable-http',
      endpoint: service.urls.mcp,
      methods: [...METHODS],
      docs: service.urls.docs,
    });
    expect(new URL(a.endpoint).pathname).toBe('/mcp');
  });

  it('a browser gets the manifest too', async () => {
    const manifest = McpManifestSchema.parse(await getJson('/mcp', { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }));
    expect(manifest.tools?.length).toBe(TOOL_LIST.length);
  });

  it('lists exactly the tools tools/list answers with', async () => {
    const manifest = McpManifestSchema.parse(await getJson('/mcp'));
    const live = await liveTools();
    expect(manifest.tools).toEqual(live.map(({ name, description }) => ({ name, description })));
    expect(manifest.tools).toEqual(TOOL_LIST.map(({ name, description }) => ({ name, description })));
  });
});

describe('resources, prompts and capabilities in the documents', () => {
  const live = async (method: string, result: string) =>
    (await (await post(`${server.url}/mcp`, request(method), { 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION })).json()).result[result];

  it('the manifest and the card advertise what initialize does, and list the templates and prompts the server answers', async () => {
    const init = await (
      await post(`${server.url}/mcp`, request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } }))
    ).json();
    const manifest = await getJson('/mcp');
    const card = await getJson('/.well-known/mcp/server-card.json');
    const templates = await live('resources/templates/list', 'resourceTemplates');
    const prompts = await live('prompts/list', 'prompts');
    for (const doc of [manifest, card]) {
      expect(doc.capabilities).toEqual(init.result.capabilities);
      expect(doc.capabilities).toMatchObject({ resources: { subscribe: false }, prompts: {} });
      expect(doc.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual(templates.map((t: { uriTemplate: string }) => t.uriTemplate));
      expect(doc.prompts).toEqual(prompts);
    }
    expect(manifest.methods).toEqual(expect.arrayContaining(['resources/list', 'resources/read', 'prompts/list', 'prompts/get']));
  });
});

describe('the server card', () => {
  it('is served at /.well-known/mcp/server-card.json, valid, and generated from the registry', async () => {
    const card = McpServerCardSchema.parse(await getJson('/.well-known/mcp/server-card.json'));
    expect(card).toMatchObject({
      name: 'deep-field',
      version: service.version,
      serverUrl: service.urls.mcp,
      title: service.show.title,
      description: service.show.description,
      protocolVersion: LATEST_PROTOCOL_VERSION,
      transport: 'streamable-http',
      publisher: service.show.author,
      contentType: 'podcast',
      language: service.show.language,
      handshakeUrl: service.urls.mcp,
    });
    const expected = listTools(LATEST_PROTOCOL_VERSION);
    expect(card.tools.map((t) => t.name)).toEqual(expected.map((t) => t.name));
    const live = await liveTools();
    for (const [i, tool] of card.tools.entries()) {
      expect(tool.description).toBe(live[i]!.description);
      expect(tool.inputSchema).toEqual(live[i]!.inputSchema);
    }
  });

  it('is also at <endpoint>/server-card (the server-card draft), byte for byte', async () => {
    const a = await (await fetch(`${server.url}/.well-known/mcp/server-card.json`)).text();
    const res = await fetch(`${server.url}/mcp/server-card`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe(a);
  });

  it('is listed in /.well-known/ai-catalog.json', async () => {
    const catalog = AiCatalogSchema.parse(await getJson('/.well-known/ai-catalog.json'));
    expect(catalog.specVersion).toBe('1.0');
    const entry = catalog.entries.find((e) => e.type === 'application/mcp-server-card+json')!;
    expect(entry.url).toBe(`${service.urls.mcp}/server-card`);
    expect(entry.identifier).toMatch(/^urn:air:[^:]+:mcp:deep-field$/);
    // The catalog points at the address this server answers.
    expect((await fetch(`${server.url}${new URL(entry.url).pathname}`)).status).toBe(200);
  });
});
