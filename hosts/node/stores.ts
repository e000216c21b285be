/**
 * What every host running on a server-side runtime with node: APIs (Node, Bun, Netlify and Vercel functions)
 * sets up the same way: the shared state stores, and the DataStore over the build's files.
 */
import { DataStore } from '../../functions/data.ts';
import { MemoryResponse } from '../../functions/memory-response.ts';
import { MemoryRateLimitStore } from '../../functions/ratelimit/memory.ts';
import type { RateLimitStore } from '../../functions/ratelimit/store.ts';
import { MemorySingleUseStore } from '../../functions/single-use/memory.ts';
import type { SingleUseStore } from '../../functions/single-use/store.ts';
import type { StaticFiles } from '../../functions/static.ts';
import type { Logger, ServiceEnv } from '../../functions/types.ts';

/** One shared store for the rate-limit budget and single-use state (Redis when REDIS_URL is set, else memory). */
export async function sharedStores(env: Pick<ServiceEnv, 'redisUrl'>, log: Logger): Promise<{ limiter: RateLimitStore; singleUse: SingleUseStore }> {
  if (!env.redisUrl) return { limiter: new MemoryRateLimitStore(), singleUse: new MemorySingleUseStore() };
  // Loaded only when configured: node-redis costs ~150 ms of a ~1 s cold start (measured by bench/).
  const { RedisSharedStore } = await import('./redis-store.ts');
  const redis = new RedisSharedStore({ url: env.redisUrl, log });
  // Start counting in Redis from the first request if it is there; do not wait long if it is not.
  await redis.ready(2_000);
  return { limiter: redis, singleUse: redis };
}

/** The handlers' view of the build: its files by URL path, as Responses. */
export function dataStoreOver(files: StaticFiles): DataStore {
  return new DataStore(async (path) => {
    // The engine keeps what it parses (bounded); holding the raw bytes too would count them twice.
    const file = await (files.peek ?? files.get).call(files, path);
    // Over the bytes themselves: a Response made from the file's Blob copied them twice more before parsing.
    return file
      ? new MemoryResponse(file.identity.bytes, null, { status: 200, headers: [['Content-Type', file.type]] })
      : new Response(null, { status: 404 });
  });
}
