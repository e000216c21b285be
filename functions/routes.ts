/** Every API route of the service, in one table. Each concern exports its own routes. */
import type { Route } from './types.ts';
import { routes as statusRoutes } from './status.ts';
import { routes as searchRoutes } from './search/routes.ts';
import { routes as mcpRoutes } from './mcp/routes.ts';
import { routes as oauthRoutes } from './oauth/routes.ts';
import { routes as donateRoutes } from './donate/routes.ts';

export const apiRoutes: Route[] = [...statusRoutes, ...searchRoutes, ...mcpRoutes, ...oauthRoutes, ...donateRoutes];
