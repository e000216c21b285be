import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { parseResources, parseScope, redirectUriProblem, rejectRepeated, s256 } from './params.ts';

describe('redirectUriProblem', () => {
  it('accepts https, loopback http on any port and private-use schemes (RFC 8252)', () => {
    for (const uri of [
      'https://app.example/callback',
      'https://app.example:8443/cb?x=1',
      'http://127.0.0.1:8765/callback',
      'http://127.0.0.1/cb',
      'http://[::1]:9000/cb',
      'http://localhost:3000/cb',
      'com.example.app:/oauth2redirect',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
    ]) {
      expect(redirectUriProblem(uri), uri).toBeUndefined();
    }
  });

  it('rejects non-loopback http, dangerous schemes, fragments and non-URIs', () => {
    for (const uri of [
      'http://evil.example/cb',
      'http://127.0.0.1.evil.example/cb',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'https://app.example/cb#fragment',
      '/relative/callback',
      '',
      42,
    ]) {
      expect(redirectUriProblem(uri), String(uri)).toBeTypeOf('string');
    }
  });
});

describe('parseScope', () => {
  it('defaults to all three, orders and checks against the grant', () => {
    expect(parseScope(null)).toBe('read:episodes read:transcripts search:episodes');
    expect(parseScope('  search:episodes   read:episodes ')).toBe('read:episodes search:episodes');
    expect(() => parseScope('read:episodes admin')).toThrow(ApiError);
    expect(() => parseScope('read:transcripts', ['read:episodes'])).toThrow(/beyond/);
    try {
      parseScope('admin');
    } catch (err) {
      expect((err as ApiError).code).toBe('invalid_scope');
      expect((err as ApiError).hint).toMatch(/read:episodes read:transcripts search:episodes/);
    }
  });

  it('echoes what it refuses shortened: a few scopes, each cut at 40 characters', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `${'x'.repeat(60)}${i}`).join(' ');
    expect(() => parseScope(many)).toThrow(ApiError);
    try {
      parseScope(many);
    } catch (err) {
      const message = (err as ApiError).message;
      expect(message).toBe(`Unknown scope: ${Array(5).fill(`"${'x'.repeat(40)}…"`).join(', ')} and 1995 more.`);
    }
  });
});

describe('parseResources', () => {
  it('accepts this service and addresses under it only', () => {
    expect(parseResources(['https://p.example/', 'https://p.example/mcp'], 'https://p.example')).toEqual(['https://p.example', 'https://p.example/mcp']);
    expect(() => parseResources(['https://p.example.evil/'], 'https://p.example')).toThrow(/not served here/);
  });
});

describe('rejectRepeated', () => {
  it('refuses a repeated parameter except resource (RFC 6749 §3.1, RFC 8707)', () => {
    expect(() => rejectRepeated(new URLSearchParams('grant_type=a&grant_type=b'))).toThrow(/"grant_type" is repeated/);
    expect(() => rejectRepeated(new URLSearchParams('resource=a&resource=b&scope=x'))).not.toThrow();
  });
});

describe('s256', () => {
  it('matches the RFC 7636 appendix B example', async () => {
    expect(await s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
