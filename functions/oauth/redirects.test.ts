import { describe, expect, it } from 'vitest';
import { MemorySingleUseStore } from '../single-use/memory.ts';
import type { DataStore } from '../data.ts';
import { isLoopback, redirectTrust, registerRedirectUris } from './redirects.ts';

const data = { service: async () => ({ show: { oauth: { redirectUris: ['https://app.show.example/cb'] } } }) } as unknown as DataStore;

describe('redirect URI trust', () => {
  it('recognises loopback hosts only by their literal form', () => {
    for (const uri of ['http://127.0.0.1:1/cb', 'http://[::1]/cb', 'http://localhost:8080/x', 'https://127.0.0.2/cb']) expect(isLoopback(uri), uri).toBe(true);
    for (const uri of ['http://127.0.0.1.evil.example/cb', 'http://localhost.evil.example/', 'com.app:/127.0.0.1', 'not a uri']) expect(isLoopback(uri), uri).toBe(false);
    // WHATWG URL parsing normalises other spellings of 127.0.0.1 to it: still this machine.
    expect(isLoopback('http://0x7f000001/cb')).toBe(true);
  });

  it('trusts loopback, configured and registered URIs, each exactly, and nothing else', async () => {
    const ctx = { data, singleUse: new MemorySingleUseStore() };
    expect(await redirectTrust('http://127.0.0.1:9/cb', ctx)).toEqual({ trusted: true, via: 'loopback' });
    expect(await redirectTrust('https://app.show.example/cb', ctx)).toEqual({ trusted: true, via: 'config' });
    expect((await redirectTrust('https://app.show.example/cb/', ctx)).trusted).toBe(false);
    expect((await redirectTrust('https://app.example/cb', ctx)).trusted).toBe(false);
    await registerRedirectUris(ctx.singleUse, ['https://app.example/cb']);
    expect(await redirectTrust('https://app.example/cb', ctx)).toEqual({ trusted: true, via: 'registration' });
    expect((await redirectTrust('https://app.example/cb?x', ctx)).trusted).toBe(false);
    expect((await redirectTrust('https://app.example/cb#f', ctx)).trusted).toBe(false);
  });
});
