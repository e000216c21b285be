/**
 * The endpoint byte by byte: JSON-RPC error codes, notifications, batches per negotiated revision, body limits,
 * Origin and Accept checks and the MCP-Protocol-Version header, with plain fetch against the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema, InitializeResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcResponseSchema } from '../../contract/schemas/mcp.ts';
import { SERVER_CAPABILITIES } from '../../contract/mcp/documents.ts';
import type { RunningServer } from '../helpers/server.ts';
import { INIT_PARAMS, post, request, startMcpServer } from './helpers.ts';

let server: RunningServer;
let mcp: string;

beforeAll(async () => {
  server = await startMcpServer();
  mcp = `${server.url}/mcp`;
});
afterAll(() => server?.stop());

async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await post(mcp, body, headers);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const V = (version: string) => ({ 'MCP-Protocol-Version': version });

describe('JSON-RPC errors', () => {
  it('-32700 for a body that is not JSON, HTTP 400, id null', async () => {
    const r = await rpc('{"jsonrpc":"2.0","id":1,"method":');
    expect(r.status).toBe(400);
    expect(JsonRpcResponseSchema.parse(r.body)).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('-32600 for JSON that is not a valid request, with the id when it can be read', async () => {
    for (const [body, id] of [
      [{ jsonrpc: '1.0', id: 5, method: 'ping' }, 5],
      [{ jsonrpc: '2.0', id: 'a', method: 42 }, 'a'],
      [{ jsonrpc: '2.0', id: null, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: 6, method: 'ping', params: 'x' }, 6],
      [{ hello: 'world' }, null],
      ['"just a string"', null],
    ] as const) {
      const r = await rpc(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JsonRpcResponseSchema.parse(r.body), JSON.stringify(body)).toMatchObject({ id, error: { code: -32600 } });
    }
  });

  it('-32601 for an unknown method, HTTP 200 with the request id', async () => {
    const r = await rpc({ jsonrpc: '2.0', id: 77, method: 'resources/subscribe' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 77, error: { code: -32601, message: expect.stringContaining('resources/subscribe') } });
  });

  it('-32602 for malformed params of a known method', async () => {
    const cases = [
      request('tools/call', {}),
      request('tools/call', { name: 'get_episode', arguments: 'id=3' }),
      request('tools/call', { name: 'nope', arguments: {} }),
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params: [1, 2] },
      request('tools/list', { cursor: 'page-2' }),
      request('initialize', { capabilities: {} }),
      // completion/complete's strings, each an object that cannot even be printed (its toString is not a function).
      request('completion/complete', { ref: { type: 'ref/prompt', name: 'summarize_episode' }, argument: { name: 'id', value: { toString: 1 } } }),
      request('completion/complete', { ref: { type: 'ref/prompt', name: { toString: 1 } }, argument: { name: 'id', value: '1' } }),
      request('completion/complete', { ref: { type: 'ref/resource', uri: { toString: null } }, argument: { name: 'id', value: '1' } }),
    ];
    for (const body of cases) {
      const r = await rpc(body, V('2025-11-25'));
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body.error?.code, JSON.stringify(body)).toBe(-32602);
      expect(r.body.id).toBe(body.id);
    }
  });

  it('never fails on the server side (-32603) when a string param is an object that cannot be printed', async () => {
    const poison = { toString: 1, valueOf: null };
    const params = {
      name: poison,
      uri: poison,
      cursor: poison,
      protocolVersion: poison,
      arguments: { id: poison, query: poison, limit: poison, topic: poison },
      ref: { type: 'ref/prompt', name: poison },
      argument: { name: 'id', value: poison },
    };
    const methods = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get', 'completion/complete'];
    for (const method of methods) {
      const r = await rpc(request(method, params), method === 'initialize' ? {} : V('2025-11-25'));
      expect(r.status, method).toBeLessThan(500);
      expect(r.body.error?.code, `${method}: ${r.text}`).not.toBe(-32603);
    }
    // And as tools/call's arguments for each tool, the one place a tool reads them.
    for (const name of ['search_episodes', 'get_episode', 'get_latest_episode', 'list_episodes', 'subscribe_via_rss']) {
      const r = await rpc(request('tools/call', { name, arguments: { query: poison, id: poison, limit: poison, offset: poison } }), V('2025-11-25'));
      expect(r.body.error?.code, `${name}: ${r.text}`).not.toBe(-32603);
      expect(r.text, name).not.toMatch(/failed on the server side/);
    }
  });

  it('never answers HTTP 500 to a bad message', async () => {
    const bodies = ['', '[]', 'null', '{}', '[1,2]', '{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":{"x":1}}}', '\u0000'];
    for (const body of bodies) {
      const r = await post(mcp, body);
      expect(r.status, JSON.stringify(body)).toBeLessThan(500);
    }
  });
});

describe('notifications and responses', () => {
  it('a notification is answered 202 with no body', async () => {
    const res = await post(mcp, { jsonrpc: '2.0', method: 'notifications/initialized' }, V('2025-11-25'));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('an unknown notification and a client response are accepted too', async () => {
    expect((await post(mcp, { jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } })).status).toBe(202);
    expect((await post(mcp, { jsonrpc: '2.0', id: 3, result: {} })).status).toBe(202);
  });
});

describe('batches follow the negotiated revision', () => {
  it('2025-03-26 (or no header): one response per request, in order, errors per element', async () => {
    for (const headers of [V('2025-03-26'), {}]) {
      const ping = request('ping');
      const list = request('tools/list');
      const r = await rpc([ping, { jsonrpc: '2.0', method: 'notifications/initialized' }, list, { nonsense: true }, request('no/such')], headers);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      expect(r.body).toHaveLength(4);
      expect(r.body[0]).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
      expect(r.body[1].id).toBe(list.id);
      expect(ListToolsResultSchema.parse(r.body[1].result).tools.length).toBeGreaterThan(0);
      expect(r.body[2]).toMatchObject({ id: null, error: { code: -32600 } });
      expect(r.body[3].error.code).toBe(-32601);
    }
  });

  it('2025-03-26: a batch of notifications only is 202; initialize may not be batched', async () => {
    const res = await post(mcp, [{ jsonrpc: '2.0', method: 'notifications/initialized' }], V('2025-03-26'));
    expect(res.status).toBe(202);
    const init = request('initialize', INIT_PARAMS('2025-03-26'));
    const r = await rpc([init], V('2025-03-26'));
    expect(r.body).toEqual([expect.objectContaining({ id: init.id, error: expect.objectContaining({ code: -32600 }) })]);
  });

  it('2025-06-18 and 2025-11-25 have no batching: -32600, HTTP 400', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const r = await rpc([request('ping'), request('ping')], V(version));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining(version) } });
    }
  });

  it('an empty batch is an invalid request', async () => {
    const r = await rpc([], V('2025-03-26'));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32600);
  });
});

describe('version negotiation and the MCP-Protocol-Version header', () => {
  it('initialize echoes a supported revision and answers the latest for any other', async () => {
    for (const [asked, answered] of [
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['2025-03-26', '2025-03-26'],
      ['2024-11-05', '2025-11-25'],
      ['2099-01-01', '2025-11-25'],
    ]) {
      const r = await rpc(request('initialize', INIT_PARAMS(asked!)));
      expect(r.status).toBe(200);
      const result = InitializeResultSchema.parse(r.body.result);
      expect(result.protocolVersion, asked).toBe(answered);
      expect(result.capabilities).toEqual(SERVER_CAPABILITIES);
      expect(result.serverInfo.name).toBe('deep-field');
      expect(r.headers.get('mcp-session-id')).toBeNull();
    }
  });

  it('an unsupported header on any other message is 400', async () => {
    const r = await rpc(request('tools/list'), V('1999-01-01'));
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('1999-01-01');
    const note = await post(mcp, { jsonrpc: '2.0', method: 'notifications/initialized' }, V('garbage'));
    expect(note.status).toBe(400);
  });

  it('tools/list and tools/call speak the revision of the header', async () => {
    const old = await rpc(request('tools/list'), V('2025-03-26'));
    for (const tool of old.body.result.tools) {
      expect(tool.outputSchema).toBeUndefined();
      expect(tool.title).toBeUndefined();
    }
    const current = await rpc(request('tools/list'), V('2025-06-18'));
    for (const tool of current.body.result.tools) expect(tool.outputSchema?.type).toBe('object');

    const oldCall = await rpc(request('tools/call', { name: 'get_latest_episode', arguments: {} }), V('2025-03-26'));
    const oldResult = CallToolResultSchema.parse(oldCall.body.result);
    expect(oldResult.structuredContent).toBeUndefined();
    expect(JSON.parse((oldResult.content[1] as { text: string }).text)).toMatchObject({ id: 13 });

    const newCall = await rpc(request('tools/call', { name: 'get_latest_episode' }), V('2025-11-25'));
    expect(CallToolResultSchema.parse(newCall.body.result).structuredContent).toMatchObject({ id: 13 });
  });

  it('bad tool arguments: -32602 before 2025-11-25, a tool error (isError) from it on', async () => {
    const args = { name: 'search_episodes', arguments: { query: 'bees', limit: 0 } };
    for (const version of ['2025-03-26', '2025-06-18']) {
      const r = await rpc(request('tools/call', args), V(version));
      expect(r.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('limit must be an integer from 1 to 50 (default 10)') });
      expect(r.body.error.data.issues[0].path).toBe('limit');
    }
    const r = await rpc(request('tools/call', args), V('2025-11-25'));
    expect(r.body.error).toBeUndefined();
    expect(r.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('limit must be an integer from 1 to 50') }] });
  });
});

describe('HTTP', () => {
  it('an oversized body is refused with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } });
    const res = await post(mcp, big);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBeTypeOf('number');
  });

  it('a body that is not application/json is 415', async () => {
    const res = await post(mcp, request('ping'), { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('Accept: JSON (or anything) is fine; a client that cannot take JSON gets 406', async () => {
    for (const accept of ['application/json', '*/*', 'application/json, text/event-stream']) {
      expect((await post(mcp, request('ping'), { Accept: accept })).status, accept).toBe(200);
    }
    const noAccept = await fetch(mcp, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request('ping')) });
    expect(noAccept.status).toBe(200);
    for (const accept of ['text/event-stream', 'text/html', 'application/json;q=0, */*']) {
      expect((await post(mcp, request('ping'), { Accept: accept })).status, accept).toBe(406);
    }
  });

  it('answers JSON with no session and no caching', async () => {
    const res = await post(mcp, request('ping'));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('GET asking for an SSE stream is 405 (no stream offered); DELETE is 405', async () => {
    const get = await fetch(mcp, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    const del = await fetch(mcp, { method: 'DELETE' });
    expect(del.status).toBe(405);
  });

  it('POST /.well-known/mcp is the same endpoint', async () => {
    const a = await rpc(request('tools/list'), V('2025-11-25'));
    const res = await post(`${server.url}/.well-known/mcp`, request('tools/list'), V('2025-11-25'));
    expect(res.status).toBe(200);
    expect((await res.json()).result).toEqual(a.body.result);
  });
});

describe('Origin (DNS-rebinding protection)', () => {
  it('a foreign browser Origin is 403', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
      const res = await post(mcp, request('ping'), { Origin: origin });
      expect(res.status, origin).toBe(403);
      expect((await res.json()).error.message).toContain('Origin');
    }
  });

  it('a rebound request (foreign Host and Origin) is 403', async () => {
    const res = await post(mcp, request('initialize', INIT_PARAMS('2025-11-25')), { Origin: 'http://evil.example:1234' });
    expect(res.status).toBe(403);
  });

  it("the site's own origin and loopback origins are allowed, as is no Origin", async () => {
    for (const origin of ['http://localhost:4321', `http://127.0.0.1:${server.port}`, 'http://localhost:6274', 'http://[::1]:8080']) {
      expect((await post(mcp, request('ping'), { Origin: origin })).status, origin).toBe(200);
    }
  });

  it('MCP_ALLOWED_ORIGINS adds origins', async () => {
    const other = await startMcpServer({ MCP_ALLOWED_ORIGINS: 'https://app.example, https://agent.example:8443' });
    try {
      expect((await post(`${other.url}/mcp`, request('ping'), { Origin: 'https://agent.example:8443' })).status).toBe(200);
      expect((await post(`${other.url}/mcp`, request('ping'), { Origin: 'https://app.example' })).status).toBe(200);
      expect((await post(`${other.url}/mcp`, request('ping'), { Origin: 'https://agent.example' })).status).toBe(403);
    } finally {
      await other.stop();
    }
  });
});
