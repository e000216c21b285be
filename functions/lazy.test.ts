import { describe, expect, it, vi } from 'vitest';
import { importOnce, lazy } from './lazy.ts';
import type { Handler, RequestContext } from './types.ts';

const ctx = {} as RequestContext;
const request = () => new Request('http://127.0.0.1/x');

describe('lazy()', () => {
  it('loads nothing until the first request, then loads once however many requests come, at once or later', async () => {
    const handler = vi.fn<Handler>(() => new Response('ok'));
    const load = vi.fn(async () => ({ handler }));
    const lazyHandler = lazy(load, (m) => m.handler);
    expect(load).not.toHaveBeenCalled();

    const first = await Promise.all([lazyHandler(request(), ctx), lazyHandler(request(), ctx), lazyHandler(request(), ctx)]);
    expect(await Promise.all(first.map((r) => r.text()))).toEqual(['ok', 'ok', 'ok']);
    expect(await (await lazyHandler(request(), ctx)).text()).toBe('ok');
    expect(load).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledTimes(4);
  });

  it('passes the request and context through, and the handler’s own failure to the caller', async () => {
    const req = request();
    const lazyHandler = lazy(
      async () => ({
        handler: ((r, c) => {
          expect(r).toBe(req);
          expect(c).toBe(ctx);
          throw new Error('handler failed');
        }) satisfies Handler,
      }),
      (m) => m.handler,
    );
    await expect(lazyHandler(req, ctx)).rejects.toThrow('handler failed');
  });

  it('tries the import again on the next request after a failed one', async () => {
    let calls = 0;
    const load = vi.fn(async () => {
      if (++calls === 1) throw new Error('import failed');
      return { handler: (() => new Response('loaded')) satisfies Handler };
    });
    const lazyHandler = lazy(load, (m) => m.handler);
    await expect(lazyHandler(request(), ctx)).rejects.toThrow('import failed');
    expect(await (await lazyHandler(request(), ctx)).text()).toBe('loaded');
    expect(await (await lazyHandler(request(), ctx)).text()).toBe('loaded');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('loads a real module through import()', async () => {
    const lazyHandler = lazy(() => import('./errors.ts'), (m) => () => m.json({ ok: true }));
    expect(await (await lazyHandler(request(), ctx)).json()).toEqual({ ok: true });
  });
});

describe('importOnce()', () => {
  it('shares one pending import between callers, and forgets a failure', async () => {
    let fail = true;
    // The first load stays pending until both callers have asked: they must share it.
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    const load = vi.fn(async () => {
      await gate;
      if (fail) throw new Error('nope');
      return 42;
    });
    const get = importOnce(load);
    const both = Promise.allSettled([get(), get()]);
    release();
    const [a, b] = await both;
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(load).toHaveBeenCalledTimes(1);
    fail = false;
    expect(await Promise.all([get(), get()])).toEqual([42, 42]);
    expect(await get()).toBe(42);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
