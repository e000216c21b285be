/**
 * The MCP wire protocol as this server speaks it: the revisions it negotiates, what changed between them, and
 * JSON-RPC 2.0 message classification. Pure functions, no I/O, so every rule here is unit-testable.
 */
import type { JSONRPCErrorResponse, JSONRPCResultResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Newest first. A client asking for any other revision is answered with the newest (the spec's negotiation). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];
/** Streamable HTTP: with no MCP-Protocol-Version header and nothing else to go by, assume 2025-03-26. */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

export const TRANSPORT = 'streamable-http';
export const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
] as const;

export const RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Implementation-defined server error: used for transport-level refusals (Origin, Accept, version header). */
  serverError: -32000,
} as const;

export function isSupportedVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(value);
}

/** initialize: the client's revision when we speak it, otherwise our latest (the client then decides). */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** Revisions are dates, so they order as strings. */
export function atLeast(version: ProtocolVersion, min: ProtocolVersion): boolean {
  return version >= min;
}

/** JSON-RPC batching exists in 2025-03-26 only; 2025-06-18 removed it. */
export const supportsBatch = (version: ProtocolVersion) => !atLeast(version, '2025-06-18');
/** Tool titles, outputSchema and structuredContent arrived in 2025-06-18. */
export const supportsStructuredContent = (version: ProtocolVersion) => atLeast(version, '2025-06-18');
/** 2025-11-25 (SEP-1303): bad tool arguments are a tool execution error the model can correct, not a protocol error. */
export const argumentErrorsAreToolErrors = (version: ProtocolVersion) => atLeast(version, '2025-11-25');

export type JsonRpcId = RequestId;
export type Params = Record<string, unknown>;

export type Message =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Params | unknown[] | undefined }
  | { kind: 'notification'; method: string }
  /** A client's reply to a server request; this server sends none, so replies are accepted and dropped. */
  | { kind: 'response' }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

/** Sorts one parsed JSON value into a JSON-RPC message kind, or says why it is not a valid one. */
export function classify(value: unknown): Message {
  if (!isPlainObject(value)) return { kind: 'invalid', id: null, reason: 'A JSON-RPC message must be a JSON object.' };
  const id = 'id' in value && isValidId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0".' };
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method === '') {
      return { kind: 'invalid', id, reason: 'method must be a non-empty string.' };
    }
    const params = value.params;
    if (params !== undefined && !isPlainObject(params) && !Array.isArray(params)) {
      return { kind: 'invalid', id, reason: 'params must be an object when present.' };
    }
    if (!('id' in value)) return { kind: 'notification', method: value.method };
    // MCP narrows JSON-RPC here: a request id is a string or an integer, never null.
    if (!isValidId(value.id)) return { kind: 'invalid', id: null, reason: 'id must be a string or an integer.' };
    return { kind: 'request', id: value.id, method: value.method, params: params as Params | unknown[] | undefined };
  }
  if ('id' in value && ('result' in value) !== ('error' in value)) return { kind: 'response' };
  return { kind: 'invalid', id, reason: 'method is required (a request or notification), or result or error (a response).' };
}

export function rpcResult(id: JsonRpcId, result: Record<string, unknown>): JSONRPCResultResponse {
  return { jsonrpc: '2.0', id, result };
}

/** An error reply. The id is null when the request's own id could not be read (parse error, invalid request). */
export function rpcError(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): Omit<JSONRPCErrorResponse, 'id'> & { id: JsonRpcId | null } {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

export type RpcReply = ReturnType<typeof rpcResult> | ReturnType<typeof rpcError>;

/** An error a method handler throws to answer with a specific JSON-RPC code. */
export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isValidId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}
