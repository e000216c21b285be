import { z } from 'zod';

export const McpManifestSchema = z.object({
  server: z.object({ name: z.string(), version: z.string() }),
  protocolVersion: z.string(),
  transport: z.string(),
  endpoint: z.url(),
  methods: z.array(z.string()).optional(),
  tools: z.array(z.object({ name: z.string(), description: z.string() })).optional(),
  docs: z.url().optional(),
});
export type McpManifest = z.infer<typeof McpManifestSchema>;

export const McpServerCardSchema = z.object({
  name: z.string(),
  version: z.string(),
  serverUrl: z.url(),
  tools: z.array(
    z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()).optional() }),
  ),
  title: z.string().optional(),
  description: z.string().optional(),
  protocolVersion: z.string().optional(),
  transport: z.string().optional(),
  publisher: z.string().optional(),
  contentType: z.string().optional(),
  language: z.string().optional(),
  handshakeUrl: z.url().optional(),
});
export type McpServerCard = z.infer<typeof McpServerCardSchema>;

const JsonRpcId = z.union([z.int(), z.string(), z.null()]);
export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  id: JsonRpcId.optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export const JsonRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  result: z.unknown().optional(),
  error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
});
