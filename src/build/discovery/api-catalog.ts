/**
 * /.well-known/api-catalog (RFC 9727): a linkset naming every public API and document with its description
 * (service-desc: the OpenAPI document), its documentation (service-doc), its health (status) and its metadata
 * (service-meta). Served as application/linkset+json.
 */
import type { LoadedContent } from '../../content/load.ts';
import { siteUrls } from '../urls.ts';
import { ApiCatalogSchema, type ApiCatalog } from '../../../contract/schemas/discovery.ts';
import { OAUTH_PATHS } from '../../../contract/oauth.ts';
import { X402_DISCOVERY_PATH, X402_SUPPORTED_PATH } from '../../../contract/tips.ts';

type Link = { href: string; type?: string; title?: string };

export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

export function buildApiCatalog(content: Pick<LoadedContent, 'show'>): ApiCatalog {
  const u = siteUrls(content.show);
  const openapi: Link = { href: u.openapi, type: OPENAPI_MEDIA_TYPE, title: 'OpenAPI 3.1 description of the whole HTTP interface' };
  const docs: Link = { href: u.docsMd, type: 'text/markdown', title: 'Developer documentation' };
  const llms: Link = { href: u.llms, type: 'text/plain', title: 'Briefing for assistant agents (llms.txt)' };
  const agents: Link = { href: u.agentsMd, type: 'text/markdown', title: 'Agent integration guide (AGENTS.md)' };
  const auth: Link = { href: u.authMd, type: 'text/markdown', title: 'Agent authentication walkthrough' };
  const status: Link = { href: u.status, type: 'application/json', title: 'Health snapshot' };
  const json = (href: string, title: string): Link => ({ href, type: 'application/json', title });
  const oauthMeta = [
    json(u.abs(OAUTH_PATHS.protectedResource), 'OAuth protected resource metadata (RFC 9728)'),
    json(u.abs(OAUTH_PATHS.authorizationServer), 'OAuth authorization server metadata (RFC 8414)'),
    json(u.abs(OAUTH_PATHS.openidConfiguration), 'OpenID discovery'),
  ];
  const x402Meta = [json(u.abs(X402_SUPPORTED_PATH), 'x402 payment kinds (tips)'), json(u.abs(X402_DISCOVERY_PATH), 'x402 discovery: the tip endpoint')];
  const mcpMeta = [
    json(u.serverCard, 'MCP server card'),
    json(u.abs('/.well-known/mcp'), 'MCP manifest'),
    json(u.abs('/.well-known/ai-catalog.json'), 'AI catalog (points at the MCP server card)'),
  ];

  const catalog: ApiCatalog = {
    linkset: [
      {
        // The service as a whole.
        anchor: u.home,
        'service-desc': [openapi],
        'service-doc': [docs, llms, agents, auth],
        status: [status],
        'service-meta': [...oauthMeta, ...mcpMeta, ...x402Meta],
        related: [
          json(u.episodesJson, 'Every episode (JSON)'),
          json(u.searchIndexJson, 'Search index: episode id → indexed text'),
          json(u.lunrIndex, 'Prebuilt Lunr index for offline search'),
          json(u.passages, 'Where the transcript passages are (their chunk files, with start times)'),
          { href: u.rss, type: 'application/rss+xml', title: 'RSS 2.0 podcast feed' },
          json(u.mcp, 'MCP server (GET: manifest, POST: JSON-RPC)'),
        ],
      },
      { anchor: u.search, 'service-desc': [openapi], 'service-doc': [docs], status: [status] },
      { anchor: u.ask, 'service-desc': [openapi], 'service-doc': [docs, agents], status: [status] },
      { anchor: u.mcp, 'service-desc': [json(u.serverCard, 'MCP server card'), openapi], 'service-doc': [agents, docs], status: [status], 'service-meta': mcpMeta },
      {
        anchor: u.lunrIndex,
        'service-doc': [docs],
        related: [json(u.passages, 'Transcript passages'), json(u.searchIndexJson, 'Plain search index')],
      },
      { anchor: u.episodesJson, 'service-desc': [openapi], 'service-doc': [docs], related: [{ href: u.rss, type: 'application/rss+xml', title: 'RSS feed' }] },
      {
        anchor: u.abs(OAUTH_PATHS.token),
        'service-desc': [openapi, json(u.abs(OAUTH_PATHS.authorizationServer), 'OAuth authorization server metadata')],
        'service-doc': [auth],
        'service-meta': [...oauthMeta, json(u.abs(OAUTH_PATHS.jwks), 'Public signing keys'), json(u.abs(OAUTH_PATHS.register), 'Registration templates')],
      },
      { anchor: u.donate, 'service-desc': [openapi], 'service-doc': [docs], 'service-meta': x402Meta },
    ],
  };
  return ApiCatalogSchema.parse(catalog);
}

/** Every href of a catalog (for link checkers and tests). */
export function catalogLinks(catalog: ApiCatalog): string[] {
  const hrefs = new Set<string>();
  for (const item of catalog.linkset) {
    for (const rel of ['service-desc', 'service-doc', 'service-meta', 'status', 'related'] as const) {
      for (const link of item[rel] ?? []) hrefs.add(link.href);
    }
  }
  return [...hrefs];
}
