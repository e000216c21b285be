import type { RequestContext } from './types.ts';

/**
 * The service's public address ({base_url}): SITE_URL at run time when set (the service moved behind another
 * address), otherwise the site URL the build published in /service.json. Every absolute URL a handler writes
 * (hints, links, the OAuth issuer) comes from here, never from the request's Host header, which any client sets.
 */
export async function baseUrl(ctx: Pick<RequestContext, 'env' | 'data'>): Promise<string> {
  const url = ctx.env.siteUrl ?? (await ctx.data.service()).show.siteUrl;
  return url.replace(/\/+$/, '');
}

/** baseUrl, or '' (a relative hint) when the build's service.json cannot be read: an error answer must not fail. */
export function baseUrlOrRelative(ctx: Pick<RequestContext, 'env' | 'data'>): Promise<string> {
  return baseUrl(ctx).catch(() => '');
}
