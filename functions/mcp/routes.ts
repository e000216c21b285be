/**
 * The MCP endpoint at both of its addresses (POST: JSON-RPC, GET: the manifest), and the server card where the
 * server-card draft looks for it (<endpoint>/server-card). The card is the prerendered
 * /.well-known/mcp/server-card.json, served as built, so both addresses answer the same bytes.
 */
import type { Route } from '../types.ts';
import { lazy } from '../lazy.ts';

export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

// Not at start: http.ts brings the whole MCP server, its tools, resources, prompts and their zod schemas.
const getManifest = lazy(() => import('./http.ts'), (m) => m.getManifest);
const postRpc = lazy(() => import('./http.ts'), (m) => m.postRpc);

const endpoint = (path: string): Route => ({ path, cors: true, methods: { GET: getManifest, POST: postRpc } });

export const routes: Route[] = [
  endpoint('/mcp'),
  endpoint('/.well-known/mcp'),
  {
    path: '/mcp/server-card',
    cors: true,
    methods: {
      GET: async (_request, ctx) => {
        const card = await ctx.data.load(SERVER_CARD_PATH, (res) => res.text());
        return new Response(card, { headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' } });
      },
    },
  },
];
