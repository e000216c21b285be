import type { ServiceEnv } from '../../functions/types.ts';

export interface ServerConfig extends ServiceEnv {
  host: string;
  port: number;
  /** Build output folder (Astro's outDir). */
  distDir: string;
}

export const ENV_HELP = `Environment:
  HOST           interface to listen on (default: localhost; 0.0.0.0 for all)
  PORT           port to listen on (default: 4321)
  SITE_URL       public address of the service ({base_url}); used at build time for every absolute URL
  TRUST_PROXY    number of reverse-proxy hops whose X-Forwarded-For/Forwarded to trust (default: 0 = none)
  REDIS_URL      redis://host:port: share the rate-limit budget between processes (default: in memory)
  LOG_LEVEL      debug | info | warn | error | silent (default: info)
  DIST_DIR       build output to serve (default: dist)
  SIGNING_KEY    Ed25519 private key (JWK JSON or PKCS#8 PEM) for tokens (EdDSA)
  SIGNING_SECRET secret for HS256 tokens when no SIGNING_KEY is set (dev: a key is generated at start)
  TIP_WALLET_ADDRESS, TIP_NETWORK, TIP_URL   tip settings (override content/podcast.yaml at build time)`;

export function readConfig(vars: Record<string, string | undefined> = process.env): ServerConfig {
  const port = Number(vars.PORT ?? 4321);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0–65535, got "${vars.PORT}"`);
  const trustProxy = Number(vars.TRUST_PROXY ?? 0);
  if (!Number.isInteger(trustProxy) || trustProxy < 0) {
    throw new Error(`TRUST_PROXY must be a number of hops (0, 1, 2, ...), got "${vars.TRUST_PROXY}"`);
  }
  const logLevel = (vars.LOG_LEVEL ?? 'info') as ServerConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be debug, info, warn, error or silent, got "${vars.LOG_LEVEL}"`);
  }
  return {
    host: vars.HOST || 'localhost',
    port,
    distDir: vars.DIST_DIR || vars.ASTRO_OUT_DIR || 'dist',
    siteUrl: vars.SITE_URL || undefined,
    trustProxy,
    redisUrl: vars.REDIS_URL || undefined,
    logLevel,
    vars,
  };
}
