import { inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';

/**
 * The real server on the sample build. These suites send far more than the contract's 60 requests a minute from
 * one address, so the rate limit is raised (the limit itself is tested elsewhere).
 */
export function startMcpServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000', ...env } });
}

export const RPC_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** POSTs one JSON-RPC body (an object, an array, or raw text) to the endpoint. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...RPC_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

let nextId = 1;
export function request(method: string, params?: Record<string, unknown>) {
  return { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) };
}

export const INIT_PARAMS = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: {},
  clientInfo: { name: 'raw-test', version: '1.0.0' },
});
