/**
 * Load over HTTP with autocannon (in this process, through its API), loopback only. A target's requests can
 * rotate over the query set, so no single query (or cache) decides the figure. Every run is preceded by an
 * uncounted warm-up, and a run with any non-2xx answer or error is marked invalid rather than reported as if
 * it were a throughput.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { processCpuMs } from './proc.ts';

export interface Target {
  name: string;
  method?: 'GET' | 'POST';
  /** Paths to rotate over (one per request, round robin across all connections). */
  paths: string[];
  headers?: Record<string, string>;
  /** Bodies to rotate over (POST), paired with paths[0]. */
  bodies?: string[];
}

export interface LoadResult {
  name: string;
  url: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  bytesPerSec: number;
  /** CPU time (user + system) the server process spent per answered request: contention-resistant cost. */
  serverCpuMsPerRequest?: number;
  valid: boolean;
}

export interface LoadOptions {
  connections: number;
  duration: number;
  warmup: number;
}

function makeRequests(target: Target): AutocannonRequest[] {
  let i = 0;
  const rotate = target.bodies ?? target.paths;
  return [
    {
      method: target.method ?? 'GET',
      path: target.paths[0],
      headers: target.headers,
      setupRequest: (request: AutocannonRequest) => {
        const k = i++ % rotate.length;
        if (target.bodies) return { ...request, body: target.bodies[k] };
        return { ...request, path: target.paths[k] };
      },
    },
  ];
}

async function fire(url: string, target: Target, connections: number, duration: number) {
  return autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    requests: makeRequests(target),
  });
}

export async function load(baseUrl: string, target: Target, options: LoadOptions, serverPid?: number): Promise<LoadResult> {
  if (options.warmup > 0) await fire(baseUrl, target, options.connections, options.warmup);
  const cpuBefore = serverPid ? processCpuMs(serverPid) : NaN;
  const r = await fire(baseUrl, target, options.connections, options.duration);
  const cpuAfter = serverPid ? processCpuMs(serverPid) : NaN;
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, Number((v as { count: number | string }).count)]),
  );
  return {
    name: target.name,
    url: `${baseUrl}${target.paths[0]}`,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    bytesPerSec: r.throughput.average,
    serverCpuMsPerRequest: serverPid && r.requests.total ? (cpuAfter - cpuBefore) / r.requests.total : undefined,
    valid: r.non2xx === 0 && r.errors === 0 && r.requests.total > 0,
  };
}
