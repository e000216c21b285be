import type { RequestContext } from '../types.ts';
import { baseUrl } from '../base-url.ts';

/**
 * The issuer ({base_url}, see base-url.ts). It is also the resource identifier and the audience of every token.
 */
export function issuerOf(ctx: Pick<RequestContext, 'env' | 'data'>): Promise<string> {
  return baseUrl(ctx);
}
