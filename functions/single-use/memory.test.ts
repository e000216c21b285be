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
    // Registrations give way, oldest first (an app registers again); nothing else does (below).
    for (let i = 0; i < 10; i++) await store.set(`redirect:${i}`, 60_000);
    expect(store.size).toBe(4);
    expect(await store.has('grant:keep')).toBe(true);
    expect(await store.has('redirect:9')).toBe(true);
    expect(await store.has('redirect:0')).toBe(false);
  });

  it('never forgets a live use or revocation when full: a first use is refused, a revocation kept past the bound', async () => {
    let now = 1_000;
    const store = new MemorySingleUseStore({ maxPerNamespace: 3, now: () => now });
    for (const jti of ['a', 'b', 'c']) expect(await store.add(`refresh:${jti}`, 60_000)).toBe(true);
    // Forgetting refresh:a would let that used token refresh again: the new use is refused instead.
    expect(await store.add('refresh:d', 60_000)).toBe(false);
    expect(await store.add('refresh:a', 60_000)).toBe(false);
    expect(await store.has('refresh:a')).toBe(true);
    for (const jti of ['a', 'b', 'c', 'd']) await store.set(`revoked:${jti}`, 60_000);
    for (const jti of ['a', 'b', 'c', 'd']) expect(await store.has(`revoked:${jti}`), jti).toBe(true);
    // Once entries expire, first uses are recorded again.
    now += 60_000;
    expect(await store.add('refresh:d', 60_000)).toBe(true);
    expect(await store.add('refresh:d', 60_000)).toBe(false);
  });

  it('lets exactly one of many concurrent adds of the same key win', async () => {
    const store = new MemorySingleUseStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.add('code:x', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
