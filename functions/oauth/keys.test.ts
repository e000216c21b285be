/** Which key signs tokens, and what the log says when none is configured. */
import { describe, expect, it } from 'vitest';
import { loadKeyRing } from './keys.ts';
import type { Logger } from '../types.ts';

const recorder = () => {
  const lines: Array<{ level: string; msg: string }> = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  const log: Logger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
};

describe('loadKeyRing without SIGNING_KEY or SIGNING_SECRET', () => {
  it('generates a key and warns that tokens die with the process', async () => {
    const { log, lines } = recorder();
    expect((await loadKeyRing({}, log)).source).toBe('generated');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('warn');
    expect(lines[0]!.msg).toContain('stop working when the process restarts');
    expect(lines[0]!.msg).not.toContain('REDIS_URL');
  });

  it('with REDIS_URL, also says that the other processes will refuse its tokens', async () => {
    const { log, lines } = recorder();
    await loadKeyRing({ REDIS_URL: 'redis://127.0.0.1:6379' }, log);
    expect(lines[0]!.msg).toContain('with REDIS_URL (several processes), a token one process issued is refused by every other');
  });
});
