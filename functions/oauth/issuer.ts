import type { RequestContext } from '../types.ts';

/**
 * The issuer ({base_url}): SITE_URL at run time when set (the service moved behind another address), otherwise
 * the site URL the build published. It is also the resource identifier and the audience of every token.
 */
export async function issuerOf(ctx: Pick<RequestContext, 'env' | 'data'>): Promise<string> {
  const url = ctx.env.siteUrl ?? (await ctx.data.service()).show.siteUrl;
  return url.replace(/\/+$/, '');
}
