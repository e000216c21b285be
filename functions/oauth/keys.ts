/**
 * The token signing key, read once per process from the environment:
 *
 *   SIGNING_KEY     an Ed25519 private key (JWK JSON or PKCS#8 PEM)  → EdDSA, public key in /oauth/jwks.json
 *   SIGNING_SECRET  a shared secret of at least 32 characters          → HS256, empty JWKS
 *   neither         a random HS256 secret made at first use            → a warning: tokens die with the process
 *
 * Exactly one algorithm is accepted at a time, so a token signed any other way (alg none, HS256 signed with the
 * public key, a key from before a rotation) never verifies. Authorization codes are encrypted with a key derived
 * from the same material, so rotating the signing key retires them too.
 */
import type { CryptoKey, JWK } from 'jose';
import type { Logger, ServiceEnv } from '../types.ts';

export type SigningAlg = 'EdDSA' | 'HS256';

export interface KeyRing {
  alg: SigningAlg;
  kid: string;
  source: 'SIGNING_KEY' | 'SIGNING_SECRET' | 'generated';
  signingKey: CryptoKey | Uint8Array;
  verificationKey: CryptoKey | Uint8Array;
  /** The public key as published in /oauth/jwks.json (EdDSA only). */
  publicJwk?: JWK;
  /** 32 bytes for `dir` + A256GCM: authorization codes. */
  codeKey: Uint8Array;
}

export const MIN_SECRET_LENGTH = 32;

/** A key configuration that cannot be used; the message says what to fix. */
export class SigningKeyError extends Error {
  readonly code = 'signing_key_invalid';
}

let cached: { vars: ServiceEnv['vars']; ring: Promise<KeyRing> } | undefined;

/** The process's key ring; the first call reads the environment and logs which key is in use. */
export function getKeyRing(env: ServiceEnv, log: Logger): Promise<KeyRing> {
  if (cached?.vars !== env.vars) {
    const ring = loadKeyRing(env.vars, log);
    cached = { vars: env.vars, ring };
    // A broken configuration is reported on every use (and logged each time) rather than cached away silently.
    ring.catch((err: unknown) => {
      log.error('token signing key unusable', { error: String((err as Error).message ?? err) });
      if (cached?.ring === ring) cached = undefined;
    });
  }
  return cached.ring;
}

/** Hosts may call this at start so the key warning appears in the log before the first request. */
export async function prepareSigningKey(env: ServiceEnv, log: Logger): Promise<Pick<KeyRing, 'alg' | 'kid' | 'source'>> {
  const { alg, kid, source } = await getKeyRing(env, log);
  return { alg, kid, source };
}

export async function loadKeyRing(vars: Record<string, string | undefined>, log: Logger): Promise<KeyRing> {
  const keyText = vars.SIGNING_KEY?.trim();
  if (keyText) {
    const ring = await edDsaRing(keyText);
    log.info('tokens are signed with EdDSA (SIGNING_KEY)', { kid: ring.kid });
    return ring;
  }
  const secret = vars.SIGNING_SECRET;
  if (secret) {
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new SigningKeyError(`SIGNING_SECRET must be at least ${MIN_SECRET_LENGTH} characters (it has ${secret.length}); generate one with: openssl rand -base64 48`);
    }
    const ring = await hmacRing(new TextEncoder().encode(secret), 'SIGNING_SECRET');
    log.info('tokens are signed with HS256 (SIGNING_SECRET)', { kid: ring.kid });
    return ring;
  }
  const ring = await hmacRing(crypto.getRandomValues(new Uint8Array(32)), 'generated');
  // With REDIS_URL the deployment is several processes, each with a key of its own: say what that breaks.
  const shared = vars.REDIS_URL
    ? '; with REDIS_URL (several processes), a token one process issued is refused by every other: give them all the same SIGNING_KEY or SIGNING_SECRET'
    : '';
  log.warn(
    `neither SIGNING_KEY nor SIGNING_SECRET is set: tokens are signed with a temporary HS256 key generated at start and stop working when the process restarts${shared}; set SIGNING_KEY (Ed25519) or SIGNING_SECRET in production`,
    { kid: ring.kid },
  );
  return ring;
}

async function edDsaRing(text: string): Promise<KeyRing> {
  // Here and not at the top: hosts prepare the key at start, and without SIGNING_KEY that must not load jose.
  const { base64url, calculateJwkThumbprint, exportJWK, importJWK, importPKCS8 } = await import('jose');
  let privateKey: CryptoKey;
  let declaredKid: string | undefined;
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string') {
        throw new SigningKeyError('SIGNING_KEY must be an Ed25519 private key: a JWK with kty "OKP", crv "Ed25519" and "d"');
      }
      declaredKid = jwk.kid;
      privateKey = (await importJWK(jwk, 'EdDSA', { extractable: true })) as CryptoKey;
    } else {
      // Environment files often carry PEM with literal "\n".
      const pem = text.replace(/\\n/g, '\n');
      privateKey = await importPKCS8(pem, 'EdDSA', { extractable: true });
    }
  } catch (err) {
    if (err instanceof SigningKeyError) throw err;
    throw new SigningKeyError(`SIGNING_KEY is not a usable Ed25519 private key (JWK JSON or PKCS#8 PEM): ${(err as Error).message}`);
  }
  const full = await exportJWK(privateKey);
  if (full.crv !== 'Ed25519' || !full.d || !full.x) throw new SigningKeyError('SIGNING_KEY must be an Ed25519 private key');
  const publicPart: JWK = { kty: 'OKP', crv: 'Ed25519', x: full.x };
  const kid = declaredKid ?? (await calculateJwkThumbprint(publicPart));
  const verificationKey = (await importJWK(publicPart, 'EdDSA')) as CryptoKey;
  return {
    alg: 'EdDSA',
    kid,
    source: 'SIGNING_KEY',
    signingKey: privateKey,
    verificationKey,
    publicJwk: { ...publicPart, kid, alg: 'EdDSA', use: 'sig' },
    codeKey: await derive('authorization-code', base64url.decode(full.d)),
  };
}

async function hmacRing(secret: Uint8Array, source: 'SIGNING_SECRET' | 'generated'): Promise<KeyRing> {
  // The kid is a labelled hash, never the secret: enough to tell keys apart after a rotation.
  const kid = `hs-${base64urlOf(await derive('kid', secret)).slice(0, 16)}`;
  return { alg: 'HS256', kid, source, signingKey: secret, verificationKey: secret, codeKey: await derive('authorization-code', secret) };
}

async function derive(label: string, material: Uint8Array): Promise<Uint8Array> {
  const prefix = new TextEncoder().encode(`podcast-oauth:${label}:`);
  const input = new Uint8Array(prefix.byteLength + material.byteLength);
  input.set(prefix);
  input.set(material, prefix.byteLength);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input));
}

/** jose's base64url.encode, without loading jose. */
function base64urlOf(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
