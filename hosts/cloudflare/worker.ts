/**
 * The Cloudflare Workers host: the pipeline (functions/app.ts) as a module Worker. Static files are the assets
 * layer's; the build's manifest routes the contract's documents through this Worker first (run_worker_first in
 * the generated wrangler config, hosts/cloudflare/build.ts), so they carry X-RateLimit-* here too, and the audio,
 * whose ranges the assets layer does not honour. Settings and
 * secrets come from the Worker's environment (vars, secrets); the rate-limit budget and single-use OAuth state are
 * shared by every isolate through Durable Objects.
 */
import { createApp, type App } from '../../functions/app.ts';
import { DataStore } from '../../functions/data.ts';
import { readServiceEnv } from '../../functions/env.ts';
import { standardResponse } from '../../functions/memory-response.ts';
import { cdnServedBy, createRemoteStaticResponder, forwardedAssetRequest } from '../../functions/static-remote.ts';
import { prepareSigningKey } from '../../functions/oauth/keys.ts';
import type { Logger } from '../../functions/types.ts';
import { MANIFEST_PATH } from '../../contract/http-policy.ts';
import { trustedManifest } from '../../contract/schemas/asset-manifest.ts';
import { DurableObjectRateLimitStore, RateLimitCounter, type CounterNamespace } from './rate-limit.ts';
import { DurableObjectSingleUseStore, SingleUseEntry, type EntryNamespace } from './single-use.ts';
import { PARTS_PATH, withKnownLength, withSplitAssets, type PartsIndex } from './split-assets.ts';

export { RateLimitCounter, SingleUseEntry };

interface Env {
  ASSETS: { fetch(request: Request): Promise<Response> };
  RATE_LIMIT: CounterNamespace;
  SINGLE_USE: EntryNamespace;
  [name: string]: unknown;
}

/** The assets binding answers by path; the host name is not looked at. */
const ASSET_ORIGIN = 'https://assets.invalid';

let app: Promise<App> | undefined;

async function createWorkerApp(env: Env): Promise<App> {
  const vars: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') vars[name] = value;
  const serviceEnv = readServiceEnv(vars);
  const log = consoleLogger(serviceEnv.logLevel);
  // Files too large for the assets layer were uploaded as parts (hosts/cloudflare/split-assets.ts): this binding
  // answers them by joining the parts; every other path is the platform's.
  const assets = withSplitAssets(env.ASSETS, await readPartsIndex(env.ASSETS));
  const fetchAsset = (path: string) => assets.fetch(new Request(`${ASSET_ORIGIN}${path}`));
  const manifest = trustedManifest(await (await fetchAsset(MANIFEST_PATH)).json());
  // The assets layer answers a range with the whole file: the responder cuts it, as a body workerd sends with its
  // Content-Length.
  const serveStatic = createRemoteStaticResponder(manifest, (path, request) => assets.fetch(forwardedAssetRequest(`${ASSET_ORIGIN}${path}`, request)), { knownLength: withKnownLength });
  await prepareSigningKey(serviceEnv, log).catch(() => {});
  return createApp({
    env: serviceEnv,
    data: new DataStore((path) => fetchAsset(path)),
    log,
    serveStatic,
    // The audio comes through the Worker (for its ranges), yet is the website's: not counted, as on every host.
    cdnServed: cdnServedBy(manifest),
    notFoundPage: (request) => serveStatic.notFoundPage(request),
    rateLimit: { store: new DurableObjectRateLimitStore(env.RATE_LIMIT, log) },
    singleUse: new DurableObjectSingleUseStore(env.SINGLE_USE),
  });
}

/** The build's list of split files; none when the output has no list (written by hosts/cloudflare/build.ts). */
async function readPartsIndex(assets: Env['ASSETS']): Promise<PartsIndex> {
  const res = await assets.fetch(new Request(`${ASSET_ORIGIN}${PARTS_PATH}`));
  if (res.status !== 200) {
    void res.body?.cancel().catch(() => {});
    return {};
  }
  return (await res.json()) as PartsIndex;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    app ??= createWorkerApp(env).catch((err: unknown) => {
      app = undefined;
      throw err;
    });
    const clientIp = request.headers.get('cf-connecting-ip') ?? '';
    return standardResponse(await (await app).fetch(request, { clientIp, signal: request.signal }));
  },
};

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 } as const;

/** One JSON line per entry on the Worker's console (wrangler tail, the dashboard's logs). */
function consoleLogger(level: keyof typeof LEVELS): Logger {
  const write = (at: keyof typeof LEVELS, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[at] < LEVELS[level]) return;
    console.log(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }));
  };
  return {
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}
