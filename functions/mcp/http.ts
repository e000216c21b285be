/**
 * Streamable HTTP for the MCP endpoint, statelessly: every POST carries everything needed to answer it, and the
 * answer is one application/json body (never an SSE stream, which the spec lets a server choose). GET answers
 * the contract's manifest instead of a stream; an MCP client that asks GET for a stream gets the spec's 405.
 */
import { baseUrlOrRelative } from '../base-url.ts';
import { ApiError, errorResponse, json } from '../errors.ts';
import { mediaType, readText } from '../body.ts';
import type { RequestContext } from '../types.ts';
import { buildManifest, identityFromService } from '../../contract/mcp/documents.ts';
import {
  DEFAULT_PROTOCOL_VERSION,
  RPC_ERROR,
  SUPPORTED_PROTOCOL_VERSIONS,
  classify,
  isSupportedVersion,
  rpcError,
  supportsBatch,
  type Message,
  type ProtocolVersion,
  type RpcReply,
} from '../../contract/mcp/protocol.ts';
import { handleRequest } from './server.ts';

/** More messages than this in one batch is refused whole: each one may run a search. */
export const MAX_BATCH = 32;

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function getManifest(request: Request, ctx: RequestContext): Promise<Response> {
  const accept = parseAccept(request.headers.get('accept'));
  if (accept.explicit('text/event-stream') && !accept.explicit('application/json')) {
    // MCP streamable HTTP: a server without a standalone SSE stream answers the client's GET with 405.
    return errorResponse('method_not_allowed', {
      message: 'This MCP server offers no SSE stream: it is stateless and answers every POST with a JSON body.',
      hint: `POST JSON-RPC to ${await baseUrlOrRelative(ctx)}${ctx.url.pathname}; GET with Accept: application/json returns the manifest.`,
      headers: { Allow: 'GET, POST, HEAD, OPTIONS' },
    });
  }
  const manifest = buildManifest(identityFromService(await ctx.data.service(), ctx.env.siteUrl));
  return json(manifest, { headers: { 'Cache-Control': 'no-cache' } });
}

export async function postRpc(request: Request, ctx: RequestContext): Promise<Response> {
  if (!(await originAllowed(request.headers.get('origin'), ctx))) {
    return rpcFailure(403, RPC_ERROR.serverError, `Forbidden: the Origin ${request.headers.get('origin')} may not use this MCP server.`, {
      code: 'forbidden',
      hint: "Call it from the site's own origin, from localhost, or from a client that sends no Origin header (any non-browser client).",
    });
  }
  if (!parseAccept(request.headers.get('accept')).accepts('application/json')) {
    return rpcFailure(406, RPC_ERROR.serverError, 'Not Acceptable: this server answers application/json.', {
      code: 'not_acceptable',
      hint: 'Send Accept: application/json, text/event-stream',
    });
  }
  if (mediaType(request) !== 'application/json') {
    return rpcFailure(415, RPC_ERROR.serverError, 'Unsupported Media Type: the body must be a JSON-RPC message as application/json.', {
      code: 'unsupported_media_type',
      hint: 'Send Content-Type: application/json',
    });
  }

  let text: string;
  try {
    text = await readText(request);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return rpcFailure(err.status, err.status === 413 ? RPC_ERROR.invalidRequest : RPC_ERROR.serverError, err.message, { code: err.code, hint: err.hint });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return rpcFailure(400, RPC_ERROR.parseError, `Parse error: the body is not valid JSON (${(err as Error).message}).`);
  }

  const batch = Array.isArray(body);
  const messages: Message[] = (batch ? (body as unknown[]) : [body]).map(classify);
  const isInitialize = !batch && messages[0]!.kind === 'request' && messages[0]!.method === 'initialize';

  // The revision in use: the header after initialize; for initialize itself, negotiation decides.
  const header = request.headers.get('mcp-protocol-version');
  if (header !== null && !isInitialize && !isSupportedVersion(header)) {
    return rpcFailure(400, RPC_ERROR.serverError, `Bad Request: unsupported MCP-Protocol-Version ${header}.`, {
      code: 'unsupported_protocol_version',
      supported: [...SUPPORTED_PROTOCOL_VERSIONS],
    });
  }
  const version: ProtocolVersion = isSupportedVersion(header) ? header : DEFAULT_PROTOCOL_VERSION;

  if (batch) {
    if (!supportsBatch(version)) {
      return rpcFailure(400, RPC_ERROR.invalidRequest, `Invalid Request: JSON-RPC batches are not part of MCP ${version}; send one message per POST.`);
    }
    if (messages.length === 0) return rpcFailure(400, RPC_ERROR.invalidRequest, 'Invalid Request: an empty batch.');
    if (messages.length > MAX_BATCH) {
      return rpcFailure(400, RPC_ERROR.invalidRequest, `Invalid Request: at most ${MAX_BATCH} messages in a batch.`);
    }
    const replies = await Promise.all(messages.map((m) => answer(m, ctx, version, true)));
    const present = replies.filter((r): r is RpcReply => r !== null);
    // Only notifications and responses: accepted, nothing to say.
    if (!present.length) return new Response(null, { status: 202, headers: NO_STORE });
    return json(present, { headers: NO_STORE });
  }

  const message = messages[0]!;
  if (message.kind === 'invalid') {
    return json(rpcError(message.id, RPC_ERROR.invalidRequest, `Invalid Request: ${message.reason}`), { status: 400, headers: NO_STORE });
  }
  const reply = await answer(message, ctx, version, false);
  if (!reply) return new Response(null, { status: 202, headers: NO_STORE });
  return json(reply, { headers: NO_STORE });
}

/** One message's reply; null for notifications and responses, which get none. */
async function answer(message: Message, ctx: RequestContext, version: ProtocolVersion, inBatch: boolean): Promise<RpcReply | null> {
  switch (message.kind) {
    case 'invalid':
      return rpcError(message.id, RPC_ERROR.invalidRequest, `Invalid Request: ${message.reason}`);
    case 'notification':
    case 'response':
      return null;
    case 'request':
      if (inBatch && message.method === 'initialize') {
        return rpcError(message.id, RPC_ERROR.invalidRequest, 'Invalid Request: initialize must not be part of a batch.');
      }
      return handleRequest(message, ctx, version);
  }
}

function rpcFailure(status: number, code: number, message: string, data?: unknown): Response {
  return json(rpcError(null, code, message, data), { status, headers: NO_STORE });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * DNS-rebinding protection (MCP transports, "Security Warning"). No Origin: not a browser, allowed. A browser
 * Origin must be the site's own (as built, or the SITE_URL override), one listed in MCP_ALLOWED_ORIGINS, or a
 * loopback origin: a rebinding attack always carries the attacker's hostname, never a loopback one. The Host
 * header cannot decide this, since a rebound request carries the attacker's Host too.
 */
export async function originAllowed(origin: string | null, ctx: RequestContext): Promise<boolean> {
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file:) and garbage
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)) return true;
  const allowed = new Set<string>();
  const add = (value: string | undefined) => {
    if (!value) return;
    try {
      allowed.add(new URL(value.trim()).origin);
    } catch {
      /* an unparsable entry allows nothing */
    }
  };
  add(ctx.env.siteUrl);
  add((await ctx.data.service()).show.siteUrl);
  for (const entry of ctx.env.mcpAllowedOrigins) allowed.add(entry);
  return allowed.has(url.origin);
}

interface AcceptRange {
  type: string;
  q: number;
}

/** Just enough of RFC 9110 Accept: media ranges with q-values; no header means anything is acceptable. */
export function parseAccept(header: string | null) {
  const ranges: AcceptRange[] = (header ?? '')
    .split(',')
    .map((part) => {
      const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { type: type ?? '', q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((r) => r.type);
  const matches = (range: string, type: string) =>
    range === type || range === '*/*' || (range.endsWith('/*') && type.startsWith(range.slice(0, -1)));
  return {
    /** Whether a response of this type is acceptable (the most specific matching range decides). */
    accepts(type: string): boolean {
      if (!ranges.length) return true;
      const hits = ranges.filter((r) => matches(r.type, type)).sort((a, b) => specificity(b.type) - specificity(a.type));
      return hits.length > 0 && hits[0]!.q > 0;
    },
    /** Whether the type is named outright (not only through a wildcard). */
    explicit(type: string): boolean {
      return ranges.some((r) => r.type === type && r.q > 0);
    },
  };
}

const specificity = (range: string) => (range === '*/*' ? 0 : range.endsWith('/*') ? 1 : 2);
