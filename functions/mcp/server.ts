/**
 * The MCP methods: initialize, ping, tools/list and tools/call, resources/list, resources/templates/list and
 * resources/read, prompts/list and prompts/get, and completion/complete, answered statelessly (nothing is kept between
 * requests, so any instance can answer any request). One request in, one JSON-RPC reply out; a failure anywhere
 * becomes a JSON-RPC error or a tool error, never an exception for the HTTP layer.
 */
import type { CallToolResult, InitializeResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { RequestContext } from '../types.ts';
import { quoteInput } from '../errors.ts';
import { SERVER_CAPABILITIES, identityFromService, listTools } from '../../contract/mcp/documents.ts';
import {
  RPC_ERROR,
  RpcError,
  argumentErrorsAreToolErrors,
  atLeast,
  negotiateVersion,
  rpcError,
  rpcResult,
  supportsStructuredContent,
  type JsonRpcId,
  type Params,
  type ProtocolVersion,
  type RpcReply,
} from '../../contract/mcp/protocol.ts';
import { TOOLS, TOOL_LIST, isToolName, type ToolName } from '../../contract/mcp/tools.ts';
import { IMPLEMENTATIONS } from './tools.ts';
import { listResourceTemplates, listResources, readResource } from './resources.ts';
import { complete, getPrompt, listPrompts } from './prompts.ts';

export interface RpcRequest {
  id: JsonRpcId;
  method: string;
  params: Params | unknown[] | undefined;
}

type MethodHandler = (params: Params, ctx: RequestContext, version: ProtocolVersion) => Promise<Record<string, unknown>>;

const HANDLERS: Record<string, MethodHandler> = {
  initialize: initialize,
  ping: async () => ({}),
  'tools/list': async (params, _ctx, version) => {
    // One page holds every tool, so no cursor this server issued can exist.
    if (params.cursor !== undefined) throw new RpcError(RPC_ERROR.invalidParams, 'Invalid cursor: tools/list has a single page; call it without a cursor.');
    return { tools: listTools(version) };
  },
  'tools/call': callTool,
  'resources/list': listResources,
  'resources/templates/list': listResourceTemplates,
  'resources/read': readResource,
  'prompts/list': listPrompts,
  'prompts/get': getPrompt,
  'completion/complete': complete,
};

export async function handleRequest(request: RpcRequest, ctx: RequestContext, version: ProtocolVersion): Promise<RpcReply> {
  const handler = Object.hasOwn(HANDLERS, request.method) ? HANDLERS[request.method] : undefined;
  if (!handler) {
    return rpcError(request.id, RPC_ERROR.methodNotFound, `Method not found: ${quoteInput(request.method)}. This server answers ${Object.keys(HANDLERS).join(', ')}.`);
  }
  if (Array.isArray(request.params)) {
    return rpcError(request.id, RPC_ERROR.invalidParams, `params of ${request.method} must be an object, not an array.`);
  }
  try {
    return rpcResult(request.id, await handler(request.params ?? {}, ctx, version));
  } catch (err) {
    if (err instanceof RpcError) return rpcError(request.id, err.code, err.message, err.data);
    ctx.log.error('mcp method failed', { method: request.method, error: String((err as Error)?.stack ?? err) });
    return rpcError(request.id, RPC_ERROR.internalError, 'Internal error: the server could not answer this request. Please try again.');
  }
}

async function initialize(params: Params, ctx: RequestContext): Promise<InitializeResult> {
  if (typeof params.protocolVersion !== 'string') {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.protocolVersion is required: the MCP revision the client speaks, e.g. "2025-11-25".');
  }
  const version = negotiateVersion(params.protocolVersion);
  const id = identityFromService(await ctx.data.service(), ctx.env.siteUrl);
  const serverInfo: InitializeResult['serverInfo'] = { name: id.name, title: id.title, version: id.version };
  if (atLeast(version, '2025-11-25')) {
    Object.assign(serverInfo, { description: id.description, websiteUrl: `${id.siteUrl}/`, icons: [{ src: id.artwork }] });
  }
  return {
    protocolVersion: version,
    capabilities: structuredClone(SERVER_CAPABILITIES),
    serverInfo,
    instructions:
      `Read-only tools for the podcast "${id.title}". Find episodes with search_episodes (topics, guests, phrases, ` +
      'questions) or list_episodes; get details with get_episode or get_latest_episode; quote what was said with ' +
      'get_transcript (cues with timestamps, a page at a time); tell listeners how to follow the show with subscribe_via_rss. ' +
      'The same data is readable as resources (podcast://show, podcast://episodes/{id}, .../transcript, .../chapters), and ' +
      'the prompts summarize_episode, find_topic and quote_moment start the common tasks.',
  };
}

async function callTool(params: Params, ctx: RequestContext, version: ProtocolVersion): Promise<CallToolResult> {
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || !name) {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.name is required: the name of the tool to call (see tools/list).');
  }
  if (!isToolName(name)) {
    throw new RpcError(RPC_ERROR.invalidParams, `Unknown tool: ${quoteInput(name)}. Available tools: ${TOOL_LIST.map((t) => t.name).join(', ')}.`);
  }
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.arguments must be an object of named arguments.');
  }
  const spec = TOOLS[name];
  const parsed = spec.input.safeParse(args ?? {});
  if (!parsed.success) {
    const message = `Invalid arguments for ${name}: ${describeIssues(parsed.error.issues, args ?? {})}.`;
    if (argumentErrorsAreToolErrors(version)) return toolError(message);
    throw new RpcError(RPC_ERROR.invalidParams, message, { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
  }
  try {
    return await run(name, parsed.data, ctx, version);
  } catch (err) {
    ctx.log.error('mcp tool failed', { tool: name, error: String((err as Error)?.stack ?? err) });
    return toolError(`${name} failed on the server side; the data it needs is unavailable right now. Please try again shortly.`);
  }
}

async function run<N extends ToolName>(name: N, args: unknown, ctx: RequestContext, version: ProtocolVersion): Promise<CallToolResult> {
  const outcome = await IMPLEMENTATIONS[name](args as never, ctx);
  if (!outcome.ok) return toolError(outcome.message);
  // The output schema is what tools/list promised; parsing keeps exactly its fields (and fails loudly on drift).
  const structured = TOOLS[name].output.parse(outcome.data) as z.output<z.ZodObject>;
  const meta = outcome.meta ? { _meta: outcome.meta } : {};
  if (supportsStructuredContent(version)) {
    return { content: [{ type: 'text', text: outcome.text }], structuredContent: structured, ...meta };
  }
  // Before 2025-06-18 there is no structuredContent: the data travels as JSON text after the readable text.
  return { content: [{ type: 'text', text: outcome.text }, { type: 'text', text: JSON.stringify(structured) }] };
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Issues as one sentence that names each bad field and its allowed values (the registry's messages do). */
function describeIssues(issues: z.core.$ZodIssue[], args: object): string {
  return issues
    .map((issue) => {
      const field = issue.path.join('.');
      const missing = field && issue.code === 'invalid_type' && valueAt(args, issue.path) === undefined;
      if (missing) return `${field} is required: ${issue.message}`;
      return field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined), value);
}
