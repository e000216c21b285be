/**
 * node-http's handling of a body the handler leaves unread: the host reads the rest before it answers, so closing
 * the connection never resets an answer the client has not read yet. Each test runs a real node:http server on a
 * free port and a raw socket client.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DRAIN_BODY_BYTES, MAX_BODY_BYTES, readText } from '../../functions/body.ts';
import { ApiError } from '../../functions/errors.ts';
import { rawSocket } from '../../test/pipeline/util.ts';
import { toRequest, writeResponse } from './node-http.ts';

interface Seen {
  /** Whether the host had read the request's body to its end once the answer was written. */
  complete: boolean;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A handler: 'ignore' answers 413 without reading, 'read' reads through functions/body.ts, 'stream' answers first. */
type Mode = 'ignore' | 'read' | 'stream';

/** A server whose handler answers as `mode` says. */
async function start(mode: Mode): Promise<{ port: number; seen: Promise<Seen> }> {
  let report!: (seen: Seen) => void;
  const seen = new Promise<Seen>((resolve) => (report = resolve));
  server = createServer(async (req: IncomingMessage, res) => {
    const request = toRequest(req, { fallbackHost: 'a.example', trustProxy: 0 });
    await writeResponse(req, res, await answer(request, mode));
    report({ complete: req.complete });
  });
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, seen };
}

async function answer(request: Request, mode: Mode): Promise<Response> {
  if (mode === 'stream') {
    // The answer starts before the body is read; the rest of the body is read while the answer is written.
    const reader = request.body!.getReader();
    let bytes = 0;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
        }
        controller.enqueue(new TextEncoder().encode(`read ${bytes}`));
        controller.close();
      },
    });
    return new Response(body);
  }
  let status = 413;
  if (mode === 'read') {
    status = 200;
    try {
      await readText(request);
    } catch (err) {
      status = (err as ApiError).status;
    }
  }
  return new Response('{"error":{}}', { status, headers: { 'Content-Type': 'application/json' } });
}

const head = (length: number | 'chunked') =>
  `POST /ask HTTP/1.1\r\nHost: a.example\r\nContent-Type: application/json\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`;

describe('a body the handler does not read', () => {
  it('is read to its end before the 413 goes out, and the connection is then closed', async () => {
    const { port, seen } = await start('ignore');
    const body = 'a'.repeat(1024 * 1024);
    // rawSocket rejects on a socket error: a reset fails the test.
    const answer = await rawSocket(port, head(body.length) + body);
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
    expect((await seen).complete).toBe(true);
  });

  it('is not read past the drain bound when its declared length is larger: the answer goes out at once', async () => {
    const { port, seen } = await start('ignore');
    // Only the head is sent: a server that waited for the 64 MB it announced would never answer.
    const answer = await rawSocket(port, head(64 * 1024 * 1024));
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect((await seen).complete).toBe(false);
  });

  it('past the drain bound, sent whole before the client reads: the connection lingers, so the 413 is not reset', async () => {
    // The client writes its 8 MB before it reads anything. Closing at once with its bytes still arriving would make
    // the kernel reset the connection, destroying the 413 (19 tries of 20 before the linger). rawSocket rejects on
    // a socket error, so a reset or a refused write fails the test.
    for (let i = 0; i < 3; i++) {
      const { port, seen } = await start('ignore');
      const body = 'a'.repeat(2 * DRAIN_BODY_BYTES);
      const answer = await rawSocket(port, head(body.length) + body);
      expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
      expect((await seen).complete).toBe(false);
      await new Promise<void>((done) => server!.close(() => done()));
      server = undefined;
    }
  });

  it('does not keep the answer waiting for a client that stops sending', async () => {
    const { port, seen } = await start('ignore');
    const answer = await rawSocket(port, head(1000) + 'a'.repeat(10));
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect((await seen).complete).toBe(false);
  });
});

/** A request with a chunked body of `bytes`, in 16 KB chunks. */
function chunked(bytes: number): string {
  const chunk = 'a'.repeat(16 * 1024);
  return `${head('chunked')}${`${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(Math.ceil(bytes / chunk.length))}0\r\n\r\n`;
}

describe('a body over the size limit, read by the handler (functions/body.ts)', () => {
  it('is drained by the handler, then answered 413', async () => {
    const { port, seen } = await start('read');
    const answer = await rawSocket(port, chunked(2 * MAX_BODY_BYTES));
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect((await seen).complete).toBe(true);
  });

  it('past DRAIN_BODY_BYTES the handler cancels it; the socket stays open, so the host drains the rest and the 413 arrives', async () => {
    const { port, seen } = await start('read');
    const answer = await rawSocket(port, chunked(DRAIN_BODY_BYTES + 2 * 1024 * 1024));
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect((await seen).complete).toBe(true);
  });

  it('still reads a body within the limit whole', async () => {
    const { port, seen } = await start('read');
    const answer = await rawSocket(port, `${head(5)}"abc"`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 /);
    expect((await seen).complete).toBe(true);
  });
});

describe('a body the handler reads while it answers', () => {
  it('is left to the handler, which reads it whole', async () => {
    const { port } = await start('stream');
    const body = 'a'.repeat(200 * 1024);
    const answer = await rawSocket(port, head(body.length) + body);
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.text).toContain(`read ${body.length}`);
  });
});

describe('the scheme a trusted proxy reports', () => {
  const get = (headers: Record<string, string>) => ({ url: '/x', method: 'GET', headers: { host: 'a.example', ...headers } }) as unknown as IncomingMessage;
  it('is read from the header TRUST_PROXY_HEADER names, and only with TRUST_PROXY', () => {
    const both = get({ forwarded: 'for=192.0.2.1;proto=https', 'x-forwarded-proto': 'http' });
    expect(toRequest(both, { fallbackHost: 'a.example', trustProxy: 1, trustProxyHeader: 'forwarded' }).url).toBe('https://a.example/x');
    expect(toRequest(both, { fallbackHost: 'a.example', trustProxy: 1 }).url).toBe('http://a.example/x');
    const xfp = get({ 'x-forwarded-proto': 'http, https' });
    expect(toRequest(xfp, { fallbackHost: 'a.example', trustProxy: 1 }).url).toBe('https://a.example/x');
    expect(toRequest(xfp, { fallbackHost: 'a.example', trustProxy: 0 }).url).toBe('http://a.example/x');
  });
});
