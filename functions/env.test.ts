/** The service's settings: one list of names and the help text that describes them (values: test/search/cache.test.ts, test/pipeline). */
import { describe, expect, it } from 'vitest';
import { SERVICE_ENV_HELP, SERVICE_ENV_NAMES } from './env.ts';

describe('SERVICE_ENV_NAMES', () => {
  it('names exactly the variables SERVICE_ENV_HELP describes, so a host passing them on (the Worker preview) misses none', () => {
    const described = new Set(SERVICE_ENV_HELP.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g));
    expect(new Set(SERVICE_ENV_NAMES)).toEqual(described);
  });
});

describe('positiveInt', () => {
  it('takes decimal digits from 1 to its limit, and the fallback when unset or empty', async () => {
    const { positiveInt, MAX_TIMER_MS } = await import('./env.ts');
    expect(positiveInt({}, 'X_MS', 7)).toBe(7);
    expect(positiveInt({ X_MS: '' }, 'X_MS', 7)).toBe(7);
    expect(positiveInt({ X_MS: '250' }, 'X_MS', 7, MAX_TIMER_MS)).toBe(250);
    expect(positiveInt({ X_MS: String(MAX_TIMER_MS) }, 'X_MS', 7, MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
  });

  it('refuses what a runtime would misread: a timer past 2^31 - 1 ms (run after 1 ms), signs, exponents, hex, spaces', async () => {
    const { positiveInt, MAX_TIMER_MS } = await import('./env.ts');
    expect(() => positiveInt({ X_MS: '10000000000' }, 'X_MS', 7, MAX_TIMER_MS)).toThrow(`X_MS must be a whole number of at least 1 and at most ${MAX_TIMER_MS}, got "10000000000"`);
    for (const raw of ['0', '-1', '1e3', '0x10', ' 5 ', '5 0', '1.5', 'abc', '1e309', '99999999999999999999']) {
      expect(() => positiveInt({ N: raw }, 'N', 7), raw).toThrow(`N must be a whole number of at least 1, got "${raw}"`);
    }
  });
});

describe('readServiceEnv', () => {
  it('refuses timeouts a timer cannot wait, by name', async () => {
    const { readServiceEnv } = await import('./env.ts');
    expect(() => readServiceEnv({ RESPONSE_TIMEOUT_MS: '1e10' })).toThrow(/^RESPONSE_TIMEOUT_MS must be/);
    expect(() => readServiceEnv({ TRUST_PROXY_HEADER: 'x-real-ip' })).toThrow('TRUST_PROXY_HEADER must be x-forwarded-for or forwarded, got "x-real-ip"');
    expect(readServiceEnv({}).trustProxyHeader).toBe('x-forwarded-for');
    expect(readServiceEnv({ TRUST_PROXY_HEADER: 'Forwarded' }).trustProxyHeader).toBe('forwarded');
    expect(() => readServiceEnv({ RATE_LIMIT_WINDOW_MS: '100000000000000000000' })).toThrow(/^RATE_LIMIT_WINDOW_MS must be .* at most 2147483647/);
  });
});

describe('settings a typo used to turn into something else', () => {
  it('TRUST_PROXY: decimal digits only ("0x1", "1e0" and " 1" had meant one hop to trust)', async () => {
    const { readServiceEnv } = await import('./env.ts');
    expect(readServiceEnv({}).trustProxy).toBe(0);
    expect(readServiceEnv({ TRUST_PROXY: '' }).trustProxy).toBe(0);
    expect(readServiceEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    for (const raw of ['0x1', '1e0', ' 1', '-1', '1.0', 'one']) {
      expect(() => readServiceEnv({ TRUST_PROXY: raw }), raw).toThrow(`TRUST_PROXY must be a number of hops (0, 1, 2, ...), got "${raw}"`);
    }
  });

  it('REDIS_URL: a redis:// or rediss:// address, named at start rather than "Invalid URL" or a first request failing', async () => {
    const { readServiceEnv } = await import('./env.ts');
    expect(readServiceEnv({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
    expect(readServiceEnv({ REDIS_URL: 'rediss://user:pw@cache.example:6380/2' }).redisUrl).toBe('rediss://user:pw@cache.example:6380/2');
    expect(readServiceEnv({ REDIS_URL: '' }).redisUrl).toBeUndefined();
    for (const raw of ['junk', '127.0.0.1:6379', 'http://cache.example', 'redis://']) {
      expect(() => readServiceEnv({ REDIS_URL: raw }), raw).toThrow(`REDIS_URL must be redis://host:port (or rediss:// for TLS), got "${raw}"`);
    }
  });

  it('MCP_ALLOWED_ORIGINS: origins only; an entry that is not one is named (it had allowed nothing, silently)', async () => {
    const { readServiceEnv } = await import('./env.ts');
    expect(readServiceEnv({}).mcpAllowedOrigins).toEqual([]);
    expect(readServiceEnv({ MCP_ALLOWED_ORIGINS: ' https://App.example, http://localhost:5173/,https://a.example:443,' }).mcpAllowedOrigins).toEqual([
      'https://app.example',
      'http://localhost:5173',
      'https://a.example',
    ]);
    for (const entry of ['app.example', 'https://app.example/mcp', 'https://app.example?x=1', 'ftp://app.example', 'https://user@app.example', 'null']) {
      expect(() => readServiceEnv({ MCP_ALLOWED_ORIGINS: `https://ok.example,${entry}` }), entry).toThrow(`"${entry}" is not one`);
    }
  });
});
