import { describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';

describe('readConfig', () => {
  it('keeps 32 MB of the build\'s files in memory unless STATIC_CACHE_MB says otherwise, and validates it', () => {
    expect(readConfig({}).staticCacheMb).toBe(32);
    expect(readConfig({ STATIC_CACHE_MB: '128' }).staticCacheMb).toBe(128);
    expect(() => readConfig({ STATIC_CACHE_MB: '0' })).toThrow(/STATIC_CACHE_MB/);
    expect(() => readConfig({ STATIC_CACHE_MB: 'all' })).toThrow(/STATIC_CACHE_MB/);
  });
});
