/**
 * /api/search and /ask over real HTTP against the built sample podcast: every bound and error envelope, hostile
 * queries, paging invariants, the event stream parsed with eventsource-parser, and a client leaving mid-stream.
 */
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { AskResponseSchema, SearchResponseSchema, SearchResultSchema, type SearchResult } from '../../contract/schemas/search.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { SEARCH_SYNTAX_DOC } from '../../contract/search/syntax.ts';

let server: RunningServer;
const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const search = (params: string) => get(`/api/search?${params}`);
const postAsk = (body: unknown, headers: Record<string, string> = {}) =>
  get('/ask', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeAll(async () => {
  // This suite makes a few hundred requests; the contract's 60 per minute is tested elsewhere.
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
});
afterAll(() => server?.stop());

async function searchJson(params: string) {
  const res = await search(params);
  expect(res.status, params).toBe(200);
  return SearchResponseSchema.parse(await res.json());
}

/** A 400 envelope whose message and hint name the field, and whose hint gives the allowed range. */
async function expectInvalid(res: Response, field: string, range?: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const { error } = ErrorEnvelopeSchema.parse(await res.json());
  expect(error.code).toBe('invalid_parameter');
  expect(error.message).toContain(field);
  expect(error.hint).toContain(field);
  if (range) expect(error.hint).toContain(range);
}

const HOSTILE = ['3:30', 'x~', 'x^', '-', '-x', '"', '*', '+', '~', '^', ':', 'title:bread', 'bread~2', 'hydration^10', '+-*~^:"',
  'bread -', 'q'.repeat(5000), 'sourdough '.repeat(500), '🍞🔥', 'sourdough 🍞', 'bread\u0000oven', '\u0000', '\\', '()[]{}',
  'ＳＯＵＲＤＯＵＧＨ', '<script>alert(1)</script>', "'; DROP TABLE episodes; --", '%', '&', '#', '?'];

describe('GET /api/search', () => {
  it('answers a SearchResponse whose results land on the matching moment', async () => {
    const res = await search('q=cryp');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const body = SearchResponseSchema.parse(await res.json());
    expect(body).toMatchObject({ query: 'cryp', offset: 0, limit: 10, count: body.results.length });
    expect(body.results[0]!.id).toBe(2);
    for (const r of body.results) {
      expect(r.snippet).toMatch(/«[^»]+»/);
      expect(r.audio).toMatch(/^http:\/\/.+\.mp3$/);
      if (r.start === undefined) continue;
      expect(new URL(r.url).searchParams.get('t')).toBe(String(r.start));
      const [h, m, s] = r.timestamp!.split(':').map(Number);
      expect(h! * 3600 + m! * 60 + s!).toBe(r.start);
    }
    expect(body.results[0]!.transcript).toMatch(/^http:\/\/.+\.srt$/);
  });

  it('finds the sourdough episode for its question, and "cryp" finds cryptography', async () => {
    expect((await searchJson(`q=${encodeURIComponent('which episode talks about sourdough starters and hydration?')}`)).results[0]!.id).toBe(1);
    expect((await searchJson('q=cryp')).results[0]!.id).toBe(2);
  });

  it.each<[string, string, string?]>([
    ['', 'q'],
    ['q=', 'q'],
    ['limit=5', 'q'],
    ['q=bread&limit=0', 'limit', '1 to 50'],
    ['q=bread&limit=51', 'limit', '1 to 50'],
    ['q=bread&limit=abc', 'limit', '1 to 50'],
    ['q=bread&limit=1.5', 'limit', '1 to 50'],
    ['q=bread&limit=-1', 'limit', '1 to 50'],
    ['q=bread&limit=', 'limit', '1 to 50'],
    ['q=bread&limit=1e1', 'limit', '1 to 50'],
    ['q=bread&limit=%201', 'limit', '1 to 50'],
    ['q=bread&limit=99999999999999999999999', 'limit', '1 to 50'],
    ['q=bread&offset=-1', 'offset', '0 to 10000'],
    ['q=bread&offset=10001', 'offset', '0 to 10000'],
    ['q=bread&offset=x', 'offset', '0 to 10000'],
    ['q=bread&offset=2.0', 'offset', '0 to 10000'],
    ['q=bread&offset=', 'offset', '0 to 10000'],
  ])('?%s → 400 naming %s', async (params, field, range) => {
    await expectInvalid(await search(params), field, range);
  });

  it('accepts every bound and echoes the defaults', async () => {
    expect(await searchJson('q=bread')).toMatchObject({ limit: 10, offset: 0 });
    expect((await searchJson('q=the+water&limit=1')).results).toHaveLength(1);
    expect(await searchJson('q=bread&limit=50&offset=0')).toMatchObject({ limit: 50, offset: 0 });
    const last = await searchJson('q=bread&offset=10000');
    expect(last).toMatchObject({ offset: 10000, count: 0, results: [], has_more: false });
    expect(last.total).toBe((await searchJson('q=bread')).total);
    expect(await searchJson('q=%20')).toMatchObject({ query: ' ', total: 0, results: [] });
  });

  it('never answers 500 to hostile queries', async () => {
    for (const q of HOSTILE) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect(res.status, JSON.stringify(q.slice(0, 40))).toBe(200);
      const body = SearchResponseSchema.parse(await res.json());
      expect(body.query).toBe(q);
    }
  });

  it('gives disjoint pages whose union is the full ordered list', async () => {
    const q = encodeURIComponent('the water and the time');
    const full = await searchJson(`q=${q}&limit=50`);
    expect(full.total).toBeGreaterThan(8);
    expect(full.results).toHaveLength(full.total);
    const scores = full.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const limit of [1, 3, 4]) {
      const ids: number[] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await searchJson(`q=${q}&limit=${limit}&offset=${offset}`);
        expect(page.total).toBe(full.total);
        expect(page.count).toBe(page.results.length);
        expect(page.has_more).toBe(offset + page.count < full.total);
        ids.push(...page.results.map((r) => r.id));
        if (!page.has_more) break;
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(full.results.map((r) => r.id));
    }
  });

  it('answers the same query the same way every time', async () => {
    const strip = ({ took_ms: _t, ...rest }: { took_ms?: number }) => rest;
    const a = await searchJson('q=tides+moon');
    const b = await searchJson('q=tides+moon');
    expect(strip(a)).toEqual(strip(b));
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get('/api/search?q=bread', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('behaves as the documented syntax says, for each documented example', async () => {
    const top = async (q: string) => (await searchJson(`q=${encodeURIComponent(q)}`)).results.map((r) => r.id);
    for (const example of ['+hydration', '-oven', 'ferm*', '"starter culture"', 'cryp', 'cryptograhpy', '3:30', 'title:bread', 'sourdough hydration']) {
      expect(SEARCH_SYNTAX_DOC).toContain(`\`${example}\``);
    }
    expect(await top('+hydration')).toContain(1);
    expect((await top('-oven'))[0]).toBe(1);
    expect((await top('sourdough -oven'))).not.toContain(1);
    expect((await top('ferm*'))[0]).toBe(1);
    expect((await top('"starter culture"'))[0]).toBe(1);
    expect((await top('cryptograhpy'))[0]).toBe(2);
    expect((await top('sourdough hydration'))[0]).toBe(1);
    expect(await top('the')).toEqual([]);
    expect((await searchJson('q=title:sourdough')).total).toBe((await searchJson('q=title+sourdough')).total);
  });
});

describe('/ask JSON', () => {
  const question = 'which episode talks about sourdough starters and hydration?';

  it('answers GET and POST with the same AskResponse', async () => {
    const g = await get(`/ask?q=${encodeURIComponent(question)}&limit=3`);
    expect(g.status).toBe(200);
    const fromGet = AskResponseSchema.parse(await g.json());
    const p = await postAsk({ query: question, limit: 3 });
    expect(p.status).toBe(200);
    const fromPost = AskResponseSchema.parse(await p.json());
    expect(fromGet.results[0]!.id).toBe(1);
    expect(fromGet._meta).toMatchObject({ response_type: 'list', contentType: 'podcast', query: question });
    expect(fromGet.count).toBe(fromGet.results.length);
    expect(fromGet.results.length).toBeLessThanOrEqual(3);
    expect(fromPost.results).toEqual(fromGet.results);
    expect(fromPost.query).toBe(question);
  });

  it('offers up to three moments per result, the first being the result’s own start; /api/search has none', async () => {
    // A question of the paraphrase set's tuning half whose best moment is not the result's own start.
    const question = 'have battery powered bikes changed how far people ride?';
    const body = AskResponseSchema.parse(await (await get(`/ask?q=${encodeURIComponent(question)}&limit=3`)).json());
    expect(body.results[0]!.id).toBe(9);
    for (const r of body.results) {
      if (r.start === undefined) continue;
      const moments = r.moments!;
      expect(moments.length).toBeGreaterThanOrEqual(1);
      expect(moments.length).toBeLessThanOrEqual(3);
      expect(moments[0]).toEqual({ start: r.start, timestamp: r.timestamp, url: r.url, snippet: r.snippet });
      expect(new Set(moments.map((m) => m.start)).size).toBe(moments.length);
      for (const m of moments) {
        expect(new URL(m.url).searchParams.get('t')).toBe(String(m.start));
        expect(new URL(m.url).pathname).toBe(new URL(r.url).pathname);
        const [h, min, sec] = m.timestamp.split(':').map(Number);
        expect(h! * 3600 + min! * 60 + sec!).toBe(m.start);
      }
    }
    // Among the moments offered is where e-bikes come up (9:56–10:57, 15 s early allowed).
    expect(body.results[0]!.moments!.some((m) => m.start >= 581 && m.start <= 657)).toBe(true);
    const searched = await searchJson(`q=${encodeURIComponent('bees hive')}&limit=3`);
    expect(searched.results.every((r) => r.moments === undefined)).toBe(true);
  });

  it('ignores unknown body fields and uses the default limit', async () => {
    const res = await postAsk({ query: 'the water and the time', extra: { nested: true }, stream: 1 });
    expect(res.status).toBe(200);
    const body = AskResponseSchema.parse(await res.json());
    expect(body.count).toBe(10);
  });

  it.each<[unknown, string, string?]>([
    [{ limit: 5 }, 'query'],
    [{ query: '' }, 'query'],
    [{ query: 5 }, 'query'],
    [{ query: null }, 'query'],
    [{ query: ['bread'] }, 'query'],
    [{ query: 'bread', limit: '5' }, 'limit', '1 to 50'],
    [{ query: 'bread', limit: 0 }, 'limit', '1 to 50'],
    [{ query: 'bread', limit: 51 }, 'limit', '1 to 50'],
    [{ query: 'bread', limit: 2.5 }, 'limit', '1 to 50'],
    [{ query: 'bread', limit: null }, 'limit', '1 to 50'],
    [{ query: 'bread', limit: true }, 'limit', '1 to 50'],
  ])('POST %j → 400 naming %s', async (body, field, range) => {
    await expectInvalid(await postAsk(body), field, range);
  });

  it.each<[string, string, string?]>([
    ['', 'q'],
    ['q=', 'q'],
    ['q=bread&limit=0', 'limit', '1 to 50'],
    ['q=bread&limit=51', 'limit', '1 to 50'],
    ['q=bread&limit=ten', 'limit', '1 to 50'],
  ])('GET ?%s → 400 naming %s', async (params, field, range) => {
    await expectInvalid(await get(`/ask?${params}`), field, range);
  });

  it('rejects bodies that are not a JSON object', async () => {
    const codes = async (res: Response) => [res.status, ErrorEnvelopeSchema.parse(await res.json()).error.code];
    expect(await codes(await postAsk('[1,2]'))).toEqual([400, 'invalid_body']);
    expect(await codes(await postAsk('"bread"'))).toEqual([400, 'invalid_body']);
    expect(await codes(await postAsk('null'))).toEqual([400, 'invalid_body']);
    expect(await codes(await postAsk('{"query": "bread",'))).toEqual([400, 'invalid_json']);
    expect(await codes(await postAsk(''))).toEqual([400, 'invalid_json']);
    expect(await codes(await postAsk({ query: 'bread' }, { 'Content-Type': 'text/plain' }))).toEqual([400, 'invalid_body']);
    expect(await codes(await postAsk({ query: 'b'.repeat(70 * 1024) }))).toEqual([413, 'payload_too_large']);
  });

  it('never answers 500 to hostile questions', async () => {
    for (const q of HOSTILE) {
      const viaGet = await get(`/ask?q=${encodeURIComponent(q)}`);
      expect(viaGet.status, JSON.stringify(q.slice(0, 40))).toBe(200);
      AskResponseSchema.parse(await viaGet.json());
      const viaPost = await postAsk({ query: q });
      expect(viaPost.status, JSON.stringify(q.slice(0, 40))).toBe(200);
      AskResponseSchema.parse(await viaPost.json());
    }
  });
});

/** Reads a whole event stream with eventsource-parser, checking every event has a name and JSON data. */
async function readStream(res: Response): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) parser.feed(decoder.decode(chunk, { stream: true }));
  for (const e of events) {
    expect(e.event).toMatch(/^(start|result|complete)$/);
    expect(() => JSON.parse(e.data)).not.toThrow();
  }
  return events;
}

describe('/ask event stream', () => {
  const question = 'how do honeybees survive the winter in a cluster?';

  it.each([
    ['Accept: text/event-stream', { Accept: 'text/event-stream' }],
    ['Prefer: streaming=true', { Prefer: 'streaming=true' }],
    ['Accept listing both', { Accept: 'application/json, text/event-stream' }],
  ])('with %s: start → result* → complete, the results equal to the JSON variant', async (_name, headers) => {
    const res = await postAsk({ query: question, limit: 4 }, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('no-cache');
    const events = await readStream(res);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('complete');
    expect(names.slice(1, -1).every((n) => n === 'result')).toBe(true);

    const start = JSON.parse(events[0]!.data);
    expect(start.query).toBe(question);
    expect(AskResponseSchema.shape._meta.parse(start._meta)).toMatchObject({ response_type: 'list', query: question });

    const streamed: SearchResult[] = events.filter((e) => e.event === 'result').map((e) => SearchResultSchema.parse(JSON.parse(e.data)));
    const json = AskResponseSchema.parse(await (await postAsk({ query: question, limit: 4 })).json());
    expect(streamed).toEqual(json.results);
    expect(streamed[0]!.id).toBe(3);
    const complete = JSON.parse(events.at(-1)!.data);
    expect(complete.count).toBe(streamed.length);
    expect(Number.isInteger(complete.took_ms)).toBe(true);
  });

  it('streams start and complete with no result in between when nothing matches', async () => {
    const events = await readStream(await postAsk({ query: 'zzqxj vvwkk' }, { Accept: 'text/event-stream' }));
    expect(events.map((e) => e.event)).toEqual(['start', 'complete']);
    expect(JSON.parse(events[1]!.data).count).toBe(0);
  });

  it('answers JSON when the stream is refused (q=0) and on GET', async () => {
    const refused = await postAsk({ query: question }, { Accept: 'text/event-stream;q=0, application/json' });
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    AskResponseSchema.parse(await refused.json());
    const viaGet = await get(`/ask?q=${encodeURIComponent(question)}`, { headers: { Accept: 'text/event-stream' } });
    expect(viaGet.headers.get('content-type')).toMatch(/^application\/json/);
    AskResponseSchema.parse(await viaGet.json());
  });

  it('reports bad parameters as a JSON 400 envelope, not as a stream', async () => {
    await expectInvalid(await postAsk({ query: '' }, { Accept: 'text/event-stream' }), 'query');
    await expectInvalid(await postAsk({ query: 'bread', limit: 99 }, { Accept: 'text/event-stream' }), 'limit', '1 to 50');
  });

  it('survives a client that disconnects mid-stream', async () => {
    // node:http, whose socket this test closes itself: how fetch settles a read pending at an abort differs between
    // Node releases (22's never settles), and the server's side is what is tested here.
    const body = JSON.stringify({ query: 'the water and the time', limit: 50 });
    const { socket, first } = await new Promise<{ socket: Socket; first: string }>((resolve, reject) => {
      const req = request(`${server.url}/ask`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'Content-Length': Buffer.byteLength(body) },
      });
      req.on('error', reject);
      req.on('response', (res) => res.once('data', (chunk: Buffer) => resolve({ socket: req.socket!, first: chunk.toString() })));
      req.end(body);
    });
    expect(first).toMatch(/^event: start\n/);
    await new Promise((closed) => socket.once('close', closed).destroy());
    // The server goes on serving, and logged no error for the stream the client dropped.
    const after = await postAsk({ query: question, limit: 2 }, { Accept: 'text/event-stream' });
    expect((await readStream(after)).at(-1)!.event).toBe('complete');
    const errors = server.logs.filter((l) => typeof l === 'object' && l.level === 'error');
    expect(errors).toEqual([]);
  });
});
