import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { exposedCollection, idleCollector } from './idle-gc.ts';

describe('idleCollector', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = (busy = () => false) => {
    const collect = vi.fn();
    const c = idleCollector({ busy, collect, idleMs: 5_000, minIntervalMs: 30_000, now: () => Date.now() });
    return { c, collect };
  };

  it('collects once the server has been quiet for the idle time after a request, and only once', () => {
    const { c, collect } = setup();
    c.activity();
    vi.advanceTimersByTime(4_999);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(600_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('never collects before any request', () => {
    const { collect } = setup();
    vi.advanceTimersByTime(600_000);
    expect(collect).not.toHaveBeenCalled();
  });

  it('waits while requests keep arriving', () => {
    const { c, collect } = setup();
    for (let i = 0; i < 20; i++) {
      c.activity();
      vi.advanceTimersByTime(1_000);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(4_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('waits while a request is in flight, however long it takes', () => {
    let inFlight = true;
    const { c, collect } = setup(() => inFlight);
    c.activity();
    vi.advanceTimersByTime(60_000);
    expect(collect).not.toHaveBeenCalled();
    inFlight = false;
    vi.advanceTimersByTime(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('collects at most once per interval under sparse traffic', () => {
    const { c, collect } = setup();
    c.activity();
    vi.advanceTimersByTime(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
    // A request every 6 s: quiet long enough each time, but the next collection waits for the interval.
    for (let i = 0; i < 4; i++) {
      c.activity();
      vi.advanceTimersByTime(6_000);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(6_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('runs nothing after stop', () => {
    const { c, collect } = setup();
    c.activity();
    c.stop();
    vi.advanceTimersByTime(60_000);
    expect(collect).not.toHaveBeenCalled();
  });
});

describe('exposedCollection', () => {
  it('is there only when the process exposes V8 collections, and then runs one', () => {
    const probe = `import { exposedCollection } from ${JSON.stringify(new URL('./idle-gc.ts', import.meta.url).pathname)};
      const run = exposedCollection(); if (run) run(); console.log(run ? 'collected' : 'none');`;
    const run = (flags: string[]) => spawnSync(process.execPath, [...flags, '--input-type=module', '-e', probe], { encoding: 'utf8' });
    const exposed = run(['--expose-gc']);
    expect(exposed.stderr).toBe('');
    expect(exposed.stdout.trim()).toBe('collected');
    expect(run([]).stdout.trim()).toBe('none');
  });
});
