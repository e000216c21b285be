/**
 * GET /api/search, GET /ask and POST /ask (JSON, or a server-sent event stream). Parameters are checked first
 * (params.ts), then the engine, loaded once per process, answers from the prebuilt index.
 */
import { readJson } from '../body.ts';
import { baseUrlOrRelative } from '../base-url.ts';
import { json } from '../errors.ts';
import type { RequestContext, Route } from '../types.ts';
import type { AskResponse, SearchResponse, SearchResult } from '../../contract/schemas/search.ts';
import type { ServiceData } from '../../contract/schemas/service-data.ts';
import { getEngine, type SearchEngine } from './engine.ts';
import { readAskBody, readAskQuery, readSearchParams, type AskParams } from './params.ts';
import { askEpisodes, searchEpisodes } from './service.ts';
import { eventStream, wantsEventStream } from './sse.ts';

const elapsed = (t0: number) => Math.max(0, Math.round(performance.now() - t0));

const JSON_HEADERS = { 'Cache-Control': 'no-cache' };

/** A client's Cache-Control: no-cache asks for an answer computed anew rather than a cached one. */
const fresh = (request: Request) => /\bno-cache\b/i.test(request.headers.get('cache-control') ?? '');

async function search(request: Request, ctx: RequestContext): Promise<Response> {
  const t0 = performance.now();
  const params = readSearchParams(ctx.url, await baseUrlOrRelative(ctx));
  const { total, results } = await searchEpisodes(ctx.data, params, { fresh: fresh(request) });
  const body: SearchResponse = {
    query: params.query,
    count: results.length,
    total,
    offset: params.offset,
    limit: params.limit,
    has_more: params.offset + results.length < total,
    took_ms: elapsed(t0),
    results,
  };
  return json(body, { headers: JSON_HEADERS });
}

function askMeta(service: ServiceData, query: string): AskResponse['_meta'] {
  return {
    response_type: 'list',
    version: service.version,
    site: service.show.siteUrl,
    contentType: 'podcast',
    query,
    generated_at: new Date().toISOString(),
  };
}

async function askJson(request: Request, params: AskParams, ctx: RequestContext, t0: number): Promise<Response> {
  const [service, { results }] = await Promise.all([ctx.data.service(), askEpisodes(ctx.data, params, { fresh: fresh(request) })]);
  const body: AskResponse = {
    _meta: askMeta(service, params.query),
    query: params.query,
    count: results.length,
    results,
    took_ms: elapsed(t0),
  };
  return json(body, { headers: JSON_HEADERS });
}

/**
 * start (before any ranking, so the client sees the stream open at once) → one result per hit, each snippet
 * made only when the client reads it → complete. Nothing more is computed once the client has gone.
 */
async function askStream(params: AskParams, ctx: RequestContext, t0: number): Promise<Response> {
  // Loaded before the status line, so a missing index is still a proper 500 envelope.
  const [engine, service] = await Promise.all([getEngine(ctx.data), ctx.data.service()]);
  let phase: 'start' | 'results' | 'done' = 'start';
  let hits: Awaited<ReturnType<SearchEngine['ask']>>['hits'] | undefined;
  let sent = 0;
  const body = eventStream(
    {
      async next() {
        if (phase === 'start') {
          phase = 'results';
          return { event: 'start', data: { _meta: askMeta(service, params.query), query: params.query } };
        }
        if (phase === 'results') {
          hits ??= (await engine.ask(params.query)).hits.slice(0, params.limit);
          if (sent < hits.length) {
            const result: SearchResult = await engine.result(hits[sent]!);
            sent++;
            return { event: 'result', data: result };
          }
          phase = 'done';
          return { event: 'complete', data: { count: sent, took_ms: elapsed(t0) } };
        }
        return undefined;
      },
    },
    ctx.signal,
    {
      onAbort: () => ctx.log.info('ask stream stopped: client went away', { sent, of: hits?.length ?? 'not ranked yet' }),
      onError: (err) => {
        ctx.log.error('ask stream failed', { error: String((err as Error)?.stack ?? err) });
        return { event: 'error', data: { error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' } } };
      },
    },
  );
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      // Tells nginx-style proxies not to buffer the stream.
      'X-Accel-Buffering': 'no',
    },
  });
}

export const routes: Route[] = [
  {
    path: '/api/search',
    cors: true,
    methods: { GET: search },
  },
  {
    path: '/ask',
    cors: true,
    methods: {
      GET: async (request, ctx) => askJson(request, readAskQuery(ctx.url, await baseUrlOrRelative(ctx)), ctx, performance.now()),
      POST: async (request, ctx) => {
        const t0 = performance.now();
        const params = readAskBody(await readJson(request));
        return wantsEventStream(request) ? askStream(params, ctx, t0) : askJson(request, params, ctx, t0);
      },
    },
  },
];
