/**
 * The /ask event stream in-process, where the test controls exactly when the client reads and when it leaves:
 * a client that disconnects after `start` must stop the work (no ranking, no snippets, no more events).
 */
import { readServiceEnv } from '../../functions/env.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { routes } from '../../functions/search/routes.ts';
import { askEpisodes } from '../../functions/search/service.ts';
import type { DataStore } from '../../functions/data.ts';
import type { Handler, RequestContext } from '../../functions/types.ts';
import { MemorySingleUseStore } from '../../functions/single-use/memory.ts';
import { AskResponseSchema, SearchResultSchema } from '../../contract/schemas/search.ts';
import { contentFiles, memoryStore, sampleContent } from './helpers.ts';

let data: DataStore;
const post = routes.find((r) => r.path === '/ask')!.methods.POST as Handler;

beforeAll(async () => {
  data = memoryStore(await contentFiles(sampleContent()));
});

function context(signal: AbortSignal, logs: string[]): RequestContext {
  const log = (msg: string, fields?: Record<string, unknown>) => logs.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  return {
    url: new URL('http://127.0.0.1/ask'),
    clientIp: '127.0.0.1',
    env: readServiceEnv({}),
    data,
    log: { info: log, warn: log, error: log },
    signal,
    headers: new Headers(),
    singleUse: new MemorySingleUseStore(),
  };
}

const askRequest = (body: unknown, headers: Record<string, string> = { Accept: 'text/event-stream' }) =>
  new Request('http://127.0.0.1/ask', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function readEvents(body: ReadableStream<Uint8Array>): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const decoder = new TextDecoder();
  for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
  return events;
}

describe('POST /ask as an event stream (in-process)', () => {
  const question = 'which episode talks about sourdough starters and hydration?';

  it('emits start, one result per hit, then complete, with the JSON variant’s results', async () => {
    const logs: string[] = [];
    const res = await post(askRequest({ query: question, limit: 5 }), context(new AbortController().signal, logs));
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = await readEvents(res.body!);
    expect(events.map((e) => e.event)).toEqual(['start', ...events.slice(1, -1).map(() => 'result'), 'complete']);
    const start = JSON.parse(events[0]!.data);
    expect(start.query).toBe(question);
    expect(AskResponseSchema.shape._meta.parse(start._meta)).toMatchObject({ response_type: 'list', query: question });
    const results = events.filter((e) => e.event === 'result').map((e) => SearchResultSchema.parse(JSON.parse(e.data)));
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.id).toBe(1);
    expect(results).toEqual((await askEpisodes(data, { query: question, limit: 5 })).results);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ count: results.length });
    expect(logs).toEqual([]);
  });

  it('stops when the client goes away after start: no ranking, no further events', async () => {
    const logs: string[] = [];
    const controller = new AbortController();
    const res = await post(askRequest({ query: question, limit: 50 }), context(controller.signal, logs));
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith('event: start\n')).toBe(true);
    controller.abort();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(logs).toEqual(['ask stream stopped: client went away {"sent":0,"of":"not ranked yet"}']);
  });

  it('stops mid-way through the results when the client goes away', async () => {
    const logs: string[] = [];
    const controller = new AbortController();
    const res = await post(askRequest({ query: 'the water', limit: 50 }), context(controller.signal, logs));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(decoder.decode((await reader.read()).value));
    expect(seen.map((s) => s.split('\n')[0])).toEqual(['event: start', 'event: result', 'event: result']);
    controller.abort();
    expect((await reader.read()).done).toBe(true);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^ask stream stopped: client went away \{"sent":2,"of":\d+\}$/);
  });

  it('also stops when the consumer cancels the body', async () => {
    const logs: string[] = [];
    const res = await post(askRequest({ query: question }), context(new AbortController().signal, logs));
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(logs).toEqual(['ask stream stopped: client went away {"sent":0,"of":"not ranked yet"}']);
  });

  it('answers JSON without an event-stream Accept or Prefer header', async () => {
    const res = await post(askRequest({ query: question, limit: 2 }, { Accept: 'application/json' }), context(new AbortController().signal, []));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = AskResponseSchema.parse(await res.json());
    expect(body.results.map((r) => r.id)[0]).toBe(1);
  });
});
