import { describe, expect, it } from 'vitest';
import { MemorySingleUseStore } from './memory.ts';

describe('MemorySingleUseStore', () => {
  it('adds a key once until it expires; set extends it; has sees only live keys', async () => {
    let now = 1_000;
    const store = new MemorySingleUseStore({ now: () => now });
    expect(await store.add('code:a', 100)).toBe(true);
    expect(await store.add('code:a', 100)).toBe(false);
    expect(await store.has('code:a')).toBe(true);
    now = 1_100;
    expect(await store.has('code:a')).toBe(false);
    expect(await store.add('code:a', 100)).toBe(true); // expired entries do not block
    await store.set('code:a', 1_000);
    now = 1_500;
    expect(await store.has('code:a')).toBe(true);
  });

  it('bounds each namespace on its own, so a flood in one never evicts another', async () => {
    const store = new MemorySingleUseStore({ maxPerNamespace: 3 });
    expect(await store.add('grant:keep', 60_000)).toBe(true);
    for (let i = 0; i < 10; i++) await store.set(`redirect:${i}`, 60_000);
    expect(store.size).toBe(4);
    expect(await store.has('grant:keep')).toBe(true);
    expect(await store.has('redirect:9')).toBe(true);
    expect(await store.has('redirect:0')).toBe(false);
  });

  it('lets exactly one of many concurrent adds of the same key win', async () => {
    const store = new MemorySingleUseStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.add('code:x', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
