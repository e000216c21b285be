import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { DRAIN_BODY_BYTES, MAX_BODY_BYTES, readJson, readText } from './body.ts';

/** A request whose body is `total` bytes in 16 KB chunks; `pulled()` says how many the reader took, `cancelled()` whether it gave up. */
function request(total: number, headers: Record<string, string> = {}) {
  let sent = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(16 * 1024, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(0x61));
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  const req = new Request('https://pod.example/ask', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit);
  return { req, pulled: () => sent, cancelled: () => cancelled };
}

const code = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return (err as ApiError).code;
};

describe('readText', () => {
  it('refuses an encoded body by its Content-Encoding, before reading it, and names what it takes', async () => {
    for (const coding of ['gzip', 'br', 'deflate, gzip']) {
      const { req, pulled } = request(1000, { 'Content-Encoding': coding });
      const err = await readText(req).then(() => undefined, (e: unknown) => e as ApiError);
      expect(err, coding).toBeInstanceOf(ApiError);
      expect(err!.code).toBe('invalid_body');
      expect(err!.message).toContain(`Content-Encoding ${JSON.stringify(coding)}`);
      expect(new Headers(err!.headers).get('accept-encoding')).toBe('identity');
      expect(pulled()).toBe(0);
    }
    expect(await readText(request(10, { 'Content-Encoding': 'identity' }).req)).toBe('a'.repeat(10));
  });

  it('reads a body within the limit whole', async () => {
    const { req, pulled } = request(1000);
    expect(await readText(req)).toBe('a'.repeat(1000));
    expect(pulled()).toBe(1000);
  });

  it('reads the rest of a body past the limit before the 413, so the host has nothing left unread', async () => {
    const { req, pulled, cancelled } = request(1024 * 1024);
    expect(await code(readText(req))).toBe('payload_too_large');
    expect(pulled()).toBe(1024 * 1024);
    expect(cancelled()).toBe(false);
  });

  it('stops reading past DRAIN_BODY_BYTES and cancels the body', async () => {
    const { req, pulled, cancelled } = request(3 * DRAIN_BODY_BYTES);
    expect(await code(readText(req))).toBe('payload_too_large');
    expect(pulled()).toBeGreaterThan(DRAIN_BODY_BYTES);
    expect(pulled()).toBeLessThan(DRAIN_BODY_BYTES + 64 * 1024);
    expect(cancelled()).toBe(true);
  });

  it('drains a body whose Content-Length is over the limit, and does not read one announced past the drain', async () => {
    const small = request(MAX_BODY_BYTES + 1, { 'Content-Length': String(MAX_BODY_BYTES + 1) });
    expect(await code(readText(small.req))).toBe('payload_too_large');
    expect(small.pulled()).toBe(MAX_BODY_BYTES + 1);
    const huge = request(1024 * 1024, { 'Content-Length': String(DRAIN_BODY_BYTES + 1) });
    expect(await code(readText(huge.req))).toBe('payload_too_large');
    expect(huge.pulled()).toBe(0);
  });

  it('answers 413, not 408, when a body already too large stops arriving', async () => {
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (first) controller.enqueue(new Uint8Array(MAX_BODY_BYTES + 1));
        first = false;
        // then nothing more: the client stalls
      },
    });
    const req = new Request('https://pod.example/ask', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(await code(readText(req, { timeoutMs: 50 }))).toBe('payload_too_large');
  });

  it('answers 408 for a body within the limit that stops arriving', async () => {
    const body = new ReadableStream<Uint8Array>({ pull() {} });
    const req = new Request('https://pod.example/ask', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(await code(readJson(req, { timeoutMs: 50 }))).toBe('request_timeout');
  });
});
