/**
 * What the registry turns into: the tools/list entries, the MCP manifest (GET /mcp, GET /.well-known/mcp) and
 * the server card (prerendered at /.well-known/mcp/server-card.json, also served at /mcp/server-card). The build
 * and the handlers both call these with the same /service.json data, so the documents match tools/list exactly.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpManifestSchema, McpServerCardSchema, type McpManifest, type McpServerCard } from '../schemas/mcp.ts';
import { AiCatalogSchema, type AiCatalog } from '../schemas/ai-catalog.ts';
import type { ServiceData } from '../schemas/service-data.ts';
import {
  LATEST_PROTOCOL_VERSION,
  METHODS,
  SUPPORTED_PROTOCOL_VERSIONS,
  TRANSPORT,
  supportsStructuredContent,
  type ProtocolVersion,
} from './protocol.ts';
import { TOOL_ANNOTATIONS, TOOL_LIST, toJsonSchema } from './tools.ts';
import { PLAYER_TOOL_META } from './app.ts';
import { RESOURCE_TEMPLATES } from './resources.ts';
import { PROMPT_LIST } from './prompts.ts';

/**
 * What initialize advertises, and the manifest and the server card repeat: tools, resources (no subscriptions:
 * the data changes only with a new build), prompts and argument completion. Nothing changes during a session.
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  prompts: { listChanged: false },
  completions: {},
} as const;

/** The resource templates and prompts as the manifest and the server card list them. */
const discoveryExtras = () => ({
  capabilities: structuredClone(SERVER_CAPABILITIES) as Record<string, unknown>,
  resourceTemplates: RESOURCE_TEMPLATES.map(({ uriTemplate, name, title, description, mimeType }) => ({ uriTemplate, name, title, description, mimeType })),
  prompts: PROMPT_LIST.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })),
});

/** Who the server is, in the terms every MCP document uses. */
export interface ServerIdentity {
  /** Machine name (the show's title as a slug), serverInfo.name. */
  name: string;
  title: string;
  description: string;
  version: string;
  language: string;
  publisher: string;
  siteUrl: string;
  endpoint: string;
  docs: string;
  artwork: string;
}

/** The server's identity from /service.json; siteUrl (the SITE_URL run-time override) rebases the addresses. */
export function identityFromService(service: ServiceData, siteUrl?: string): ServerIdentity {
  const built = service.show.siteUrl.replace(/\/+$/, '');
  const base = (siteUrl ?? built).replace(/\/+$/, '');
  const rebase = (url: string) => (url.startsWith(built) ? base + url.slice(built.length) : url);
  return {
    name: slug(service.show.title) || 'podcast',
    title: service.show.title,
    description: service.show.description,
    version: service.version,
    language: service.show.language,
    publisher: service.show.author,
    siteUrl: base,
    endpoint: rebase(service.urls.mcp ?? `${built}/mcp`),
    docs: rebase(service.urls.docs ?? `${built}/docs.md`),
    artwork: rebase(service.show.artwork),
  };
}

/** tools/list for a negotiated revision: titles and output schemas only where the revision defines them. */
export function listTools(version: ProtocolVersion = LATEST_PROTOCOL_VERSION): Tool[] {
  const structured = supportsStructuredContent(version);
  return TOOL_LIST.map((spec) => {
    const entry: Tool = {
      name: spec.name,
      description: spec.description,
      inputSchema: toJsonSchema(spec.input, 'input') as Tool['inputSchema'],
      annotations: { title: spec.title, ...TOOL_ANNOTATIONS },
    };
    if (structured) {
      entry.title = spec.title;
      entry.outputSchema = toJsonSchema(spec.output, 'output') as Tool['outputSchema'];
      // MCP Apps: hosts that support it open the player with the result; others ignore _meta.
      if (spec.opensPlayer) entry._meta = structuredClone(PLAYER_TOOL_META) as Tool['_meta'];
    }
    return entry;
  });
}

export function buildManifest(id: ServerIdentity): McpManifest {
  const manifest = {
    server: { name: id.name, version: id.version },
    protocolVersion: LATEST_PROTOCOL_VERSION,
    transport: TRANSPORT,
    endpoint: id.endpoint,
    methods: [...METHODS],
    tools: TOOL_LIST.map((t) => ({ name: t.name, description: t.description })),
    docs: id.docs,
    // Beyond the contract's fields: every revision the endpoint negotiates, the capabilities, templates and prompts.
    supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    ...discoveryExtras(),
  };
  // Checked against the contract, but returned whole: parsing would drop the extra key.
  McpManifestSchema.parse(manifest);
  return manifest;
}

export function buildServerCard(id: ServerIdentity): McpServerCard {
  const card = {
    name: id.name,
    version: id.version,
    serverUrl: id.endpoint,
    tools: listTools(LATEST_PROTOCOL_VERSION).map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description: description ?? '',
      inputSchema,
      outputSchema,
      annotations,
    })),
    title: id.title,
    description: id.description,
    protocolVersion: LATEST_PROTOCOL_VERSION,
    transport: TRANSPORT,
    publisher: id.publisher,
    contentType: 'podcast',
    language: id.language,
    // The handshake (initialize) is a POST to the endpoint itself; no session, no separate address.
    handshakeUrl: id.endpoint,
    // What the server-card draft (SEP-2127) reads, beside the contract's fields.
    supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    remotes: [{ type: TRANSPORT, url: id.endpoint }],
    websiteUrl: `${id.siteUrl}/`,
    icons: [{ src: id.artwork }],
    ...discoveryExtras(),
  };
  // Checked against the contract, but returned whole: parsing would drop the extra keys.
  McpServerCardSchema.parse(card);
  return card as McpServerCard;
}

/** The server-card draft's address for the card: the endpoint followed by /server-card. */
export const serverCardUrl = (id: ServerIdentity) => `${id.endpoint}/server-card`;

/** /.well-known/ai-catalog.json: one entry, the MCP server card at its draft address. */
export function buildAiCatalog(id: ServerIdentity, tags: string[], updatedAt: string): AiCatalog {
  const host = new URL(id.siteUrl).hostname;
  return AiCatalogSchema.parse({
    specVersion: '1.0',
    host: { displayName: id.publisher, identifier: host, documentationUrl: id.docs },
    entries: [
      {
        identifier: `urn:air:${host}:mcp:${id.name}`,
        type: 'application/mcp-server-card+json',
        url: serverCardUrl(id),
        description: `MCP server for the podcast ${id.title}: search episodes, read transcripts (tools and resources), ready-made prompts, an in-chat player, subscribe.`,
        tags,
        version: id.version,
        updatedAt,
        publisher: { identifier: host, displayName: id.publisher },
      },
    ],
  });
}

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
