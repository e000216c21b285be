/**
 * /openapi.json: an OpenAPI 3.1 description of the whole HTTP interface. Every body schema is generated from the
 * zod schemas in contract/schemas with zod's own z.toJSONSchema (JSON Schema 2020-12, which OpenAPI 3.1 uses as is),
 * so the description cannot drift from what the handlers validate and the tests check.
 */
import { z } from 'zod';
import type { LoadedContent } from '../../content/load.ts';
import { siteUrls } from '../urls.ts';
import { EpisodeListSchema, EpisodeSchema } from '../../../contract/schemas/episode.ts';
import { ErrorEnvelopeSchema } from '../../../contract/schemas/error.ts';
import { AskRequestSchema, AskResponseSchema, LIMITS, SearchIndexSchema, SearchResponseSchema, SearchResultSchema } from '../../../contract/schemas/search.ts';
import { StatusResponseSchema } from '../../../contract/schemas/status.ts';
import { METHODS } from '../../../contract/mcp/protocol.ts';
import { JsonRpcRequestSchema, JsonRpcResponseSchema, McpManifestSchema, McpServerCardSchema } from '../../../contract/schemas/mcp.ts';
import { ApiCatalogSchema } from '../../../contract/schemas/discovery.ts';
import {
  AuthorizationServerMetadataSchema,
  ClaimRequestSchema,
  ClaimResponseSchema,
  ClientRegistrationRequestSchema,
  ClientRegistrationResponseSchema,
  JwksSchema,
  OpenIdConfigurationSchema,
  ProtectedResourceMetadataSchema,
  RegistrationTemplatesResponseSchema,
  RevocationRequestSchema,
  TokenRequestSchema,
  TokenResponseSchema,
} from '../../../contract/schemas/oauth.ts';
import { DonateResponseSchema, X402DiscoveryResourcesSchema, X402SupportedSchema } from '../../../contract/schemas/donate.ts';
import { OAUTH_PATHS, SCOPES, SCOPE_DESCRIPTIONS } from '../../../contract/oauth.ts';
import { X402_DISCOVERY_PATH, X402_SUPPORTED_PATH } from '../../../contract/tips.ts';
import pkg from '../../../package.json' with { type: 'json' };

/** The contract's interface version. */
export const INTERFACE_VERSION = '1.1.0';

type Schemas = Record<string, z.ZodType>;

/** What handlers answer (io: output). */
const RESPONSES: Schemas = {
  Episode: EpisodeSchema,
  EpisodeList: EpisodeListSchema,
  SearchResult: SearchResultSchema,
  SearchResponse: SearchResponseSchema,
  AskResponse: AskResponseSchema,
  SearchIndex: SearchIndexSchema,
  StatusResponse: StatusResponseSchema,
  McpManifest: McpManifestSchema,
  McpServerCard: McpServerCardSchema,
  JsonRpcResponse: JsonRpcResponseSchema,
  ApiCatalog: ApiCatalogSchema,
  ErrorEnvelope: ErrorEnvelopeSchema,
  DonateResponse: DonateResponseSchema,
  X402Supported: X402SupportedSchema,
  X402DiscoveryResources: X402DiscoveryResourcesSchema,
  ProtectedResourceMetadata: ProtectedResourceMetadataSchema,
  AuthorizationServerMetadata: AuthorizationServerMetadataSchema,
  OpenIdConfiguration: OpenIdConfigurationSchema,
  RegistrationTemplatesResponse: RegistrationTemplatesResponseSchema,
  ClientRegistrationResponse: ClientRegistrationResponseSchema,
  ClaimResponse: ClaimResponseSchema,
  TokenResponse: TokenResponseSchema,
  Jwks: JwksSchema,
};

/** What clients send (io: input, so defaults make fields optional). */
const REQUESTS: Schemas = {
  AskRequest: AskRequestSchema,
  JsonRpcRequest: JsonRpcRequestSchema,
  ClientRegistrationRequest: ClientRegistrationRequestSchema,
  ClaimRequest: ClaimRequestSchema,
  TokenRequest: TokenRequestSchema,
  RevocationRequest: RevocationRequestSchema,
};

function componentSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [io, schemas] of [['output', RESPONSES], ['input', REQUESTS]] as const) {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
    const result = z.toJSONSchema(registry, {
      io,
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
    }) as { schemas: Record<string, Record<string, unknown>> };
    for (const [id, schema] of Object.entries(result.schemas)) {
      const { $schema: _drop, $id: _id, ...rest } = schema;
      out[id] = rest;
    }
  }
  return out;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const jsonContent = (id: string) => ({ 'application/json': { schema: ref(id) } });
const error = (description: string) => ({ description, content: jsonContent('ErrorEnvelope') });
const text = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: 'string' } } } });
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time when the window resets', schema: { type: 'integer' } },
};
const ok = (description: string, content: Record<string, unknown>) => ({ description, headers: RATE_LIMIT_HEADERS, content });
const COMMON_ERRORS = {
  '429': {
    ...error('Rate limit exceeded (60 requests per minute per IP)'),
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
  },
  '500': error('Internal failure'),
};
/** Read endpoints and POST /mcp: a bearer token is optional and changes nothing, but an invalid one is refused. */
const OPTIONAL_BEARER = { security: [{}, { bearer: [] }], responses401: { '401': error('An invalid, expired or foreign bearer token was sent (WWW-Authenticate: Bearer error="invalid_token")') } };
const form = (id: string) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema: ref(id) } } });

const q = (name: string, description: string, schema: Record<string, unknown>, required = false) => ({ name, in: 'query', required, description, schema });
const limitParam = q('limit', 'Maximum results per page', { type: 'integer', minimum: LIMITS.limit.min, maximum: LIMITS.limit.max, default: LIMITS.limit.default });

export function buildOpenApi(content: Pick<LoadedContent, 'show'>) {
  const { show } = content;
  const u = siteUrls(show);
  const doc = (summary: string, type: string, tag: string, extra: Record<string, unknown> = {}) => ({
    get: { tags: [tag], summary, responses: { '200': ok(summary, { [type]: { schema: { type: 'string' } } }), ...COMMON_ERRORS }, ...extra },
  });
  const getJson = (summary: string, schemaId: string, tag: string, extra: Record<string, unknown> = {}) => ({
    get: { tags: [tag], summary, responses: { '200': ok(summary, jsonContent(schemaId)), ...COMMON_ERRORS }, ...extra },
  });

  const paths: Record<string, unknown> = {
    '/api/search': {
      get: {
        tags: ['Search'],
        operationId: 'searchEpisodes',
        summary: 'Ranked search over titles, descriptions and transcripts',
        parameters: [
          q('q', 'Search text (supports +required, -excluded, prefix*)', { type: 'string', minLength: LIMITS.queryMinLength }, true),
          limitParam,
          q('offset', 'Results to skip', { type: 'integer', minimum: LIMITS.offset.min, maximum: LIMITS.offset.max, default: LIMITS.offset.default }),
        ],
        security: OPTIONAL_BEARER.security,
        responses: { '200': ok('One page of results', jsonContent('SearchResponse')), '400': error('Missing or invalid parameter'), ...OPTIONAL_BEARER.responses401, '405': error('Method not allowed'), ...COMMON_ERRORS },
      },
    },
    '/ask': {
      get: {
        tags: ['Search'],
        operationId: 'askGet',
        summary: 'Natural-language ask (query-string variant, always JSON)',
        parameters: [q('q', 'The question', { type: 'string', minLength: LIMITS.queryMinLength }, true), limitParam],
        security: OPTIONAL_BEARER.security,
        responses: { '200': ok('Episodes ranked by transcript relevance', jsonContent('AskResponse')), '400': error('Missing or invalid parameter'), ...OPTIONAL_BEARER.responses401, ...COMMON_ERRORS },
      },
      post: {
        tags: ['Search'],
        operationId: 'ask',
        summary: 'Natural-language ask; streams server-sent events with Accept: text/event-stream or Prefer: streaming=true',
        parameters: [
          { name: 'Accept', in: 'header', required: false, schema: { type: 'string', example: 'text/event-stream' } },
          { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', example: 'streaming=true' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('AskRequest') } } },
        security: OPTIONAL_BEARER.security,
        responses: {
          '200': ok('AskResponse JSON, or an event stream of start, result (zero or more) and complete events', {
            'application/json': { schema: ref('AskResponse') },
            'text/event-stream': { schema: { type: 'string' } },
          }),
          '400': error('Bad body: not JSON (Content-Type other than application/json), malformed, or invalid fields'),
          ...OPTIONAL_BEARER.responses401,
          '413': error('Body larger than 64 KB'),
          ...COMMON_ERRORS,
        },
      },
    },
    '/status': getJson('Health snapshot', 'StatusResponse', 'Service', { operationId: 'status', security: OPTIONAL_BEARER.security }),
    '/episodes.json': getJson('Every episode, sorted by id ascending', 'EpisodeList', 'Documents', { operationId: 'listEpisodes', security: OPTIONAL_BEARER.security }),
    '/search-index.json': getJson('Episode id → indexed text', 'SearchIndex', 'Documents', { security: OPTIONAL_BEARER.security }),
    '/search/lunr-index.json': {
      get: { tags: ['Documents'], summary: 'Prebuilt Lunr 2 index for offline search: episode metadata, and the layout of the transcript shards', responses: { '200': ok('A serialized lunr.Index with a layout', { 'application/json': { schema: { type: 'object' } } }), ...COMMON_ERRORS } },
    },
    '/search/passages.json': {
      get: { tags: ['Documents'], summary: 'Where the transcript passages are (in chunks per episode, /search/passages/{id}-{chunk}.json)', responses: { '200': ok('Passage layout', { 'application/json': { schema: { type: 'object' } } }), ...COMMON_ERRORS } },
    },
    '/rss.xml': doc('RSS 2.0 podcast feed', 'application/rss+xml', 'Documents'),
    '/llms.txt': doc('Plain-text briefing for assistant agents', 'text/plain', 'Documents'),
    '/docs.md': doc('Developer documentation', 'text/markdown', 'Documents'),
    '/AGENTS.md': doc('Agent integration guide', 'text/markdown', 'Documents'),
    '/auth.md': doc('Agent authentication walkthrough', 'text/markdown', 'Authentication'),
    '/openapi.json': { get: { tags: ['Discovery'], summary: 'This document', responses: { '200': ok('OpenAPI 3.1', { 'application/json': { schema: { type: 'object' } } }) } } },
    '/transcripts/{srtFile}': {
      get: {
        tags: ['Documents'],
        summary: "An episode's transcript (SubRip)",
        parameters: [{ name: 'srtFile', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': ok('SRT text', { 'application/x-subrip': { schema: { type: 'string' } } }), '404': error('No such transcript') },
      },
    },
    '/chapters/{id}.json': {
      get: {
        tags: ['Documents'],
        summary: "An episode's chapters (JSON chapters 1.2.0)",
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': ok('Chapters', { 'application/json': { schema: { type: 'object' } } }), '404': error('No such episode or no chapters') },
      },
    },
    '/audio/{audioFile}': {
      get: {
        tags: ['Documents'],
        summary: "An episode's MP3 (supports Range requests)",
        parameters: [
          { name: 'audioFile', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'Range', in: 'header', required: false, schema: { type: 'string', example: 'bytes=0-1023' } },
        ],
        responses: {
          '200': { description: 'The whole file', content: { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } } },
          '206': { description: 'The requested range', content: { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } } },
          '404': error('No such file'),
          '416': error('Range not satisfiable'),
        },
      },
    },
    '/mcp': {
      get: { tags: ['MCP'], operationId: 'mcpManifest', summary: 'MCP manifest', responses: { '200': ok('Manifest', jsonContent('McpManifest')), ...COMMON_ERRORS } },
      post: {
        tags: ['MCP'],
        operationId: 'mcpRpc',
        summary: `MCP JSON-RPC 2.0 over streamable HTTP (${METHODS.join(', ')})`,
        requestBody: { required: true, content: { 'application/json': { schema: ref('JsonRpcRequest') } } },
        security: OPTIONAL_BEARER.security,
        responses: { '200': ok('JSON-RPC response', jsonContent('JsonRpcResponse')), ...OPTIONAL_BEARER.responses401, ...COMMON_ERRORS },
      },
    },
    '/.well-known/mcp': {
      get: { tags: ['MCP'], summary: 'MCP manifest (same as GET /mcp)', responses: { '200': ok('Manifest', jsonContent('McpManifest')), ...COMMON_ERRORS } },
      post: {
        tags: ['MCP'],
        summary: 'The same JSON-RPC endpoint as POST /mcp',
        requestBody: { required: true, content: { 'application/json': { schema: ref('JsonRpcRequest') } } },
        security: OPTIONAL_BEARER.security,
        responses: { '200': ok('JSON-RPC response', jsonContent('JsonRpcResponse')), ...OPTIONAL_BEARER.responses401, ...COMMON_ERRORS },
      },
    },
    '/.well-known/mcp/server-card.json': getJson('MCP server card', 'McpServerCard', 'MCP'),
    '/mcp/server-card': getJson('MCP server card (the server-card draft address: the endpoint + /server-card)', 'McpServerCard', 'MCP'),
    '/.well-known/ai-catalog.json': {
      get: { tags: ['Discovery'], summary: 'AI catalog pointing agents at the MCP server card', responses: { '200': ok('AI catalog', { 'application/json': { schema: { type: 'object' } } }) } },
    },
    '/.well-known/api-catalog': {
      get: { tags: ['Discovery'], summary: 'RFC 9727 API catalog', responses: { '200': ok('Linkset', { 'application/linkset+json': { schema: ref('ApiCatalog') } }) } },
    },
    '/donate': {
      post: {
        tags: ['Tips'],
        operationId: 'donate',
        summary: 'Optional tip: always 402 with payment options (x402, MPP, external)',
        responses: {
          '402': {
            description: 'Payment options. Nothing requires payment.',
            headers: {
              'WWW-Authenticate': { description: 'Payment challenge naming network and asset', schema: { type: 'string' } },
              'PAYMENT-REQUIRED': { description: 'x402 v2 PaymentRequired, base64 JSON (present when a wallet is configured)', schema: { type: 'string' } },
              'X-Payment-Required': { description: 'x402 v1 payment requirements, JSON', schema: { type: 'string' } },
              Link: { description: 'rel=payment and rel=x402-supported', schema: { type: 'string' } },
            },
            content: jsonContent('DonateResponse'),
          },
          ...COMMON_ERRORS,
        },
      },
    },
    [X402_SUPPORTED_PATH]: getJson('x402 payment kinds accepted for tips', 'X402Supported', 'Tips'),
    [X402_DISCOVERY_PATH]: getJson('x402 discovery list: the tip endpoint', 'X402DiscoveryResources', 'Tips'),
    [OAUTH_PATHS.agentAuth]: {
      get: {
        tags: ['Authentication'],
        summary: 'Always 401 with a Bearer challenge (realm, scope, resource_metadata, auth_md)',
        responses: { '401': { ...error('Challenge'), headers: { 'WWW-Authenticate': { schema: { type: 'string' } } } } },
      },
    },
    [OAUTH_PATHS.protectedResource]: getJson('Protected resource metadata (RFC 9728)', 'ProtectedResourceMetadata', 'Authentication'),
    [OAUTH_PATHS.authorizationServer]: getJson('Authorization server metadata (RFC 8414)', 'AuthorizationServerMetadata', 'Authentication'),
    [OAUTH_PATHS.openidConfiguration]: getJson('OpenID discovery', 'OpenIdConfiguration', 'Authentication'),
    [OAUTH_PATHS.register]: {
      get: { tags: ['Authentication'], summary: 'Registration templates', responses: { '200': ok('Templates', jsonContent('RegistrationTemplatesResponse')) } },
      post: {
        tags: ['Authentication'],
        summary: 'Dynamic client registration (RFC 7591)',
        requestBody: { required: true, content: { 'application/json': { schema: ref('ClientRegistrationRequest') } } },
        responses: { '201': { description: 'Registered (client_id is always public)', content: jsonContent('ClientRegistrationResponse') }, '400': error('invalid_redirect_uri or invalid_client_metadata') },
      },
    },
    [OAUTH_PATHS.claim]: {
      post: {
        tags: ['Authentication'],
        summary: 'Mint an identity assertion',
        requestBody: form('ClaimRequest'),
        responses: { '200': { description: 'The assertion', content: jsonContent('ClaimResponse') }, '400': error('invalid_request or invalid_scope') },
      },
    },
    [OAUTH_PATHS.authorize]: {
      get: {
        tags: ['Authentication'],
        summary: 'Authorization endpoint (response_type=code, PKCE S256, auto-approved)',
        parameters: [
          q('response_type', 'Only code', { type: 'string', enum: ['code'] }, true),
          q('client_id', 'Always public', { type: 'string', enum: ['public'] }, true),
          q('redirect_uri', 'A loopback URI (any port), or an https or private-use-scheme URI registered at POST /oauth/register (or listed by the operator), matched exactly', { type: 'string' }, true),
          q('code_challenge', 'base64url(SHA-256(code_verifier))', { type: 'string' }, true),
          q('code_challenge_method', 'Only S256', { type: 'string', enum: ['S256'] }, true),
          q('scope', 'Space-separated scopes (default: all)', { type: 'string' }),
          q('state', 'Echoed back', { type: 'string' }),
          q('resource', 'RFC 8707 resource indicator (this service or an address under it)', { type: 'string' }),
        ],
        responses: {
          '200': {
            description:
              'A browser navigation (Sec-Fetch-Mode: navigate, or Accept preferring text/html) on a redirect_uri trusted only through open registration: an HTML page naming that address, with a link to the redirect the person follows themselves (RFC 9700 §4.11.2)',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '302': { description: 'Redirect to redirect_uri with code, state and iss (or error and error_description)', headers: { Location: { schema: { type: 'string' } } } },
          '400': error('unsupported_response_type, invalid_request or invalid_redirect_uri (never redirected)'),
        },
      },
    },
    [OAUTH_PATHS.token]: {
      post: {
        tags: ['Authentication'],
        summary: 'Token endpoint: authorization_code (PKCE), client_credentials, jwt-bearer, refresh_token',
        requestBody: form('TokenRequest'),
        responses: {
          '200': { description: 'Tokens (Cache-Control: no-store)', content: jsonContent('TokenResponse') },
          '400': error('invalid_request, invalid_grant, unsupported_grant_type, invalid_scope or invalid_target'),
          '401': error('invalid_client'),
        },
      },
    },
    [OAUTH_PATHS.revoke]: {
      post: { tags: ['Authentication'], summary: 'Token revocation (RFC 7009)', requestBody: form('RevocationRequest'), responses: { '200': { description: 'Always, with an empty body' } } },
    },
    [OAUTH_PATHS.jwks]: getJson('Public signing keys (empty under HS256)', 'Jwks', 'Authentication'),
  };

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${show.title} listener service`,
      version: INTERFACE_VERSION,
      summary: 'Read-only interface to one podcast: episodes, search, ask, MCP, feed, discovery, optional tips and credentials.',
      description: `${show.description.replace(/\s+/g, ' ').trim()}\n\nEvery read is public. Implementation ${pkg.name} ${pkg.version}.`,
      license: { name: pkg.license, identifier: pkg.license },
    },
    externalDocs: { description: 'Developer documentation', url: u.docsMd },
    servers: [{ url: u.base }],
    tags: [
      { name: 'Search' },
      { name: 'Documents' },
      { name: 'MCP' },
      { name: 'Service' },
      { name: 'Discovery' },
      { name: 'Tips' },
      { name: 'Authentication', externalDocs: { url: u.authMd } },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Optional; grants nothing different.' },
        oauth2: {
          type: 'oauth2',
          description: 'Optional credentials; see auth.md.',
          flows: {
            authorizationCode: {
              authorizationUrl: u.abs(OAUTH_PATHS.authorize),
              tokenUrl: u.abs(OAUTH_PATHS.token),
              refreshUrl: u.abs(OAUTH_PATHS.token),
              scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
            },
            clientCredentials: {
              tokenUrl: u.abs(OAUTH_PATHS.token),
              scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
            },
          },
        },
      },
    },
  };
}
