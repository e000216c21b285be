/**
 * Minting and checking the service's tokens with jose. Three kinds, told apart by the JWT `typ` header (which the
 * signature covers): access tokens (at+jwt, RFC 9068), identity assertions (oauth-id-jag+jwt) and refresh tokens
 * (rt+jwt). Authorization codes are JWE (dir + A256GCM): self-contained, unreadable and unforgeable by clients.
 */
import { EncryptJWT, SignJWT, errors, jwtDecrypt, jwtVerify, type JWTPayload } from 'jose';
import type { KeyRing } from './keys.ts';
import {
  ACCESS_TOKEN_TTL,
  AUTHORIZATION_CODE_TTL,
  IDENTITY_ASSERTION_TTL,
  REFRESH_TOKEN_TTL,
  TOKEN_TYPES,
} from '../../contract/oauth.ts';

export type TokenKind = keyof typeof TOKEN_TYPES;

export interface TokenClaims extends JWTPayload {
  iss: string;
  sub: string;
  aud: string | string[];
  iat: number;
  exp: number;
  jti: string;
  scope: string;
  client_id: string;
  email?: string;
  email_verified?: boolean;
  /** The grant a token descends from (the authorization code's jti): revoking it revokes the whole family. */
  gid?: string;
}

export interface MintOptions {
  issuer: string;
  sub: string;
  scope: string;
  clientId: string;
  /** Audiences besides the issuer (an RFC 8707 resource under it). */
  resources?: string[];
  extra?: Record<string, unknown>;
}

const TTL: Record<TokenKind, number> = {
  access: ACCESS_TOKEN_TTL,
  identityAssertion: IDENTITY_ASSERTION_TTL,
  refresh: REFRESH_TOKEN_TTL,
};

export async function mintToken(ring: KeyRing, kind: TokenKind, opts: MintOptions, now = nowSeconds()): Promise<{ token: string; claims: TokenClaims }> {
  const aud = audience(opts.issuer, opts.resources);
  const claims: TokenClaims = {
    ...opts.extra,
    iss: opts.issuer,
    sub: opts.sub,
    aud,
    iat: now,
    exp: now + TTL[kind],
    jti: crypto.randomUUID(),
    scope: opts.scope,
    client_id: opts.clientId,
  };
  const token = await new SignJWT(claims).setProtectedHeader({ alg: ring.alg, kid: ring.kid, typ: TOKEN_TYPES[kind] }).sign(ring.signingKey);
  return { token, claims };
}

function audience(issuer: string, resources: string[] = []): string | string[] {
  const all = [...new Set([issuer, ...resources])];
  return all.length === 1 ? all[0]! : all;
}

/** Why a token was refused, in words a client developer can act on. */
export class TokenError extends Error {
  readonly code = 'invalid_token';
}

/** Verifies signature (configured alg only), issuer, audience, expiry and kind; returns the claims. */
export async function verifyToken(ring: KeyRing, token: string, kinds: TokenKind[], issuer: string): Promise<{ kind: TokenKind; claims: TokenClaims }> {
  let payload: JWTPayload;
  let typ: string | undefined;
  try {
    const result = await jwtVerify(token, ring.verificationKey, {
      algorithms: [ring.alg],
      issuer,
      audience: issuer,
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      clockTolerance: CLOCK_TOLERANCE,
    });
    payload = result.payload;
    typ = result.protectedHeader.typ;
  } catch (err) {
    throw new TokenError(describeJoseError(err, ring));
  }
  // A media type compares case-insensitively, and "application/" may be left out (RFC 7515 §4.1.9, RFC 9068 §4).
  const mediaType = typ?.toLowerCase().replace(/^application\//, '');
  const kind = (Object.keys(TOKEN_TYPES) as TokenKind[]).find((k) => TOKEN_TYPES[k] === mediaType);
  if (!kind || !kinds.includes(kind)) {
    const what = kind === 'refresh' ? 'a refresh token' : kind === 'identityAssertion' ? 'an identity assertion' : kind === 'access' ? 'an access token' : `a token of type "${typ ?? 'none'}"`;
    throw new TokenError(`This is ${what}; expected ${kinds.map((k) => (k === 'refresh' ? 'a refresh token' : k === 'identityAssertion' ? 'an identity assertion' : 'an access token')).join(' or ')}.`);
  }
  if (typeof payload.scope !== 'string' || typeof payload.client_id !== 'string') {
    throw new TokenError('The token lacks the scope or client_id claim.');
  }
  lifetimeProblem(payload as TokenClaims, TTL[kind]);
  return { kind, claims: payload as TokenClaims };
}

/** Seconds of clock difference tolerated between the service's processes. */
const CLOCK_TOLERANCE = 5;

/**
 * A correctly signed token must still have the lifetime this service gives its kind: issued no later than now,
 * and expiring no later than its TTL after issue (and after now). A key that leaked, or a minting bug, cannot
 * create a token that lives ten years.
 */
function lifetimeProblem(claims: Pick<TokenClaims, 'iat' | 'exp'>, ttl: number, now = nowSeconds()): void {
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') throw new TokenError('The token lacks iat or exp.');
  if (claims.iat > now + CLOCK_TOLERANCE) throw new TokenError('The token is not valid yet (iat is in the future).');
  if (claims.exp - claims.iat > ttl || claims.exp > now + ttl + CLOCK_TOLERANCE) {
    throw new TokenError(`The token's lifetime exceeds the ${ttl} seconds this service issues; get a new one.`);
  }
}

function describeJoseError(err: unknown, ring: KeyRing): string {
  if (err instanceof errors.JWTExpired) return 'The token has expired; get a new one (refresh_token grant or /oauth/token).';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return 'The token was issued by another issuer.';
    if (err.claim === 'aud') return 'The token is meant for another audience.';
    if (err.reason === 'missing') return `The token lacks the ${err.claim} claim.`;
    if (err.claim === 'nbf' || err.claim === 'iat') return 'The token is not valid yet.';
    return `The token's ${err.claim} claim is invalid.`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return `The token must be signed with ${ring.alg}.`;
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return 'The token signature does not verify: it was altered, or signed with a key this service no longer uses.';
  }
  if (err instanceof errors.JOSENotSupported) return `The token must be signed with ${ring.alg}, and name no "crit" header this service does not know.`;
  return 'The token is not a well-formed signed JWT.';
}

/** What an authorization code carries, bound at /oauth/authorize and checked at /oauth/token. */
export interface CodeClaims {
  sub: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resources?: string[];
  jti: string;
  exp: number;
}

export async function mintCode(ring: KeyRing, issuer: string, code: Omit<CodeClaims, 'jti' | 'exp'>, now = nowSeconds()): Promise<string> {
  const { sub, ...rest } = code;
  return new EncryptJWT({ ...rest })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: ring.kid, cty: 'oauth-code' })
    .setIssuer(issuer)
    .setSubject(sub)
    .setJti(crypto.randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + AUTHORIZATION_CODE_TTL)
    .encrypt(ring.codeKey);
}

/** Decrypts a code; null when it is not one of ours, was tampered with, or has expired. */
export async function openCode(ring: KeyRing, issuer: string, code: string): Promise<{ claims?: CodeClaims; problem?: string }> {
  try {
    const { payload, protectedHeader } = await jwtDecrypt(code, ring.codeKey, {
      issuer,
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      requiredClaims: ['sub', 'jti', 'exp'],
    });
    if (protectedHeader.cty !== 'oauth-code') return { problem: 'The code is not an authorization code.' };
    const now = nowSeconds();
    if (typeof payload.iat !== 'number' || payload.iat > now + CLOCK_TOLERANCE || payload.exp! - payload.iat > AUTHORIZATION_CODE_TTL) {
      return { problem: 'The authorization code is not valid (its lifetime is not one this service issues).' };
    }
    return { claims: payload as unknown as CodeClaims };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { problem: `The authorization code expired (codes live ${AUTHORIZATION_CODE_TTL} seconds).` };
    return { problem: 'The authorization code is not valid (unknown, altered, or made with a key this service no longer uses).' };
  }
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
