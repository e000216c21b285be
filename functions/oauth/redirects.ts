/**
 * Which redirect URIs an authorization response may go to (RFC 9700 §2.1 and §4.1, RFC 6749 §3.1.2.2, RFC 8252).
 * The contract keeps one public client and open registration, so trust is per URI rather than per client:
 *
 *   - loopback URIs (http or https to 127.0.0.1, [::1] or localhost) on any port, as native apps need (RFC 8252 §7.3);
 *   - URIs listed in the show's config (content/podcast.yaml oauth.redirectUris), matched exactly;
 *   - URIs registered at POST /oauth/register, kept in the deployment's shared single-use store under a hash of
 *     the exact string for REGISTRATION_TTL_S (renewed by every registration and every authorization using them),
 *     so every process, and every host, sees the registration.
 *
 * Anything else is answered by the service itself (an error page or envelope), never redirected to.
 */
import { base64url } from 'jose';
import type { RequestContext } from '../types.ts';
import type { SingleUseStore } from '../single-use/store.ts';
import { redirectUriProblem } from './params.ts';
import { REDIRECT_REGISTRATION_TTL } from '../../contract/oauth.ts';

/** Registered redirect URIs are trusted this long after their last registration or use. */
export const REGISTRATION_TTL_S = REDIRECT_REGISTRATION_TTL;

const LOOPBACK_HOST = /^(127(?:\.\d{1,3}){3}|\[::1\]|localhost)$/i;

export function isLoopback(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOST.test(url.hostname);
}

async function registrationKey(uri: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(uri));
  return `redirect:${base64url.encode(new Uint8Array(digest))}`;
}

/** Records redirect URIs (already checked with redirectUriProblem) as registered. */
export async function registerRedirectUris(store: SingleUseStore, uris: readonly string[]): Promise<void> {
  await Promise.all(uris.filter((u) => !isLoopback(u)).map(async (u) => store.set(await registrationKey(u), REGISTRATION_TTL_S * 1000)));
}

export type RedirectTrust = { trusted: true; via: 'loopback' | 'config' | 'registration' } | { trusted: false; problem: string };

/** Whether the authorization endpoint may redirect to uri; a registration it relies on is renewed. */
export async function redirectTrust(uri: string, ctx: Pick<RequestContext, 'data' | 'singleUse'>): Promise<RedirectTrust> {
  const problem = redirectUriProblem(uri);
  if (problem) return { trusted: false, problem: `redirect_uri ${problem}` };
  if (isLoopback(uri)) return { trusted: true, via: 'loopback' };
  const configured = (await ctx.data.service()).show.oauth?.redirectUris ?? [];
  if (configured.includes(uri)) return { trusted: true, via: 'config' };
  const key = await registrationKey(uri);
  if (await ctx.singleUse.has(key)) {
    await ctx.singleUse.set(key, REGISTRATION_TTL_S * 1000);
    return { trusted: true, via: 'registration' };
  }
  return { trusted: false, problem: 'redirect_uri is not registered' };
}
