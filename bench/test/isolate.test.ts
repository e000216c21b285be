import { describe, expect, it } from 'vitest';
import { serializeConfig } from 'miniflare';
import { pickWorkerTarget, readV8Flags, withV8Flags } from '../lib/isolate.ts';

describe('inspector target list', () => {
  const target = (name: string) => ({
    id: `uuid-${name}`,
    type: 'node',
    title: `Cloudflare Worker: ${name}`,
    webSocketDebuggerUrl: `ws://127.0.0.1:9229/${name}`,
  });

  it('picks the Worker by name, or the only target', () => {
    expect(pickWorkerTarget([target('other'), target('podcast-listener-service')], 'podcast-listener-service').id).toBe('uuid-podcast-listener-service');
    expect(pickWorkerTarget([{ ...target('x'), title: 'Cloudflare Worker' }], 'podcast-listener-service').id).toBe('uuid-x');
  });

  it('refuses an ambiguous or malformed list', () => {
    expect(() => pickWorkerTarget([target('a'), target('b')], 'c')).toThrow(/no single inspector target/);
    expect(() => pickWorkerTarget({ error: 'x' }, 'c')).toThrow(/did not answer a list/);
    expect(() => pickWorkerTarget([{ id: 'no-url' }], 'c')).toThrow(/no single/);
  });
});

describe("V8 flags in workerd's binary config", () => {
  const config = (v8Flags?: string[]) =>
    serializeConfig({
      services: [{ name: 'main', worker: { compatibilityDate: '2026-04-01', modules: [{ name: 'w.js', esModule: 'export default {}' }] } }],
      sockets: [{ name: 'http', address: '127.0.0.1:0', service: { name: 'main' } }],
      ...(v8Flags ? { v8Flags } : {}),
    });

  it('adds flags to a config without any, leaving the rest of the message as it was', () => {
    const before = config();
    expect(readV8Flags(before)).toEqual([]);
    const after = withV8Flags(before, ['--max-old-space-size=128', '--max-semi-space-size=1']);
    expect(readV8Flags(after)).toEqual(['--max-old-space-size=128', '--max-semi-space-size=1']);
    // Same services and sockets: the original segment's bytes are unchanged except for the v8Flags pointer.
    expect(after.byteLength).toBeGreaterThan(before.byteLength);
  });

  it('keeps the flags a config already sets', () => {
    const after = withV8Flags(config(['--expose-gc']), ['--max-old-space-size=64']);
    expect(readV8Flags(after)).toEqual(['--expose-gc', '--max-old-space-size=64']);
    expect(readV8Flags(withV8Flags(after, ['--x']))).toEqual(['--expose-gc', '--max-old-space-size=64', '--x']);
  });
});
