import { describe, expect, it } from 'vitest';
import type { Show } from '../../content/load.ts';
import { buildX402DiscoveryResources, buildX402Supported } from './x402.ts';
import { buildApiCatalog, catalogLinks } from './api-catalog.ts';
import { buildAuthorizationServerMetadata, buildProtectedResourceMetadata } from './oauth.ts';
import { authDocsSection, tipDocsSection } from './docs-snippets.ts';

function show(tips: Show['tips'], siteUrl = 'https://podcast.example'): Pick<import('../../content/load.ts').LoadedContent, 'show'> {
  return { show: { title: 'Test', siteUrl, audioBaseUrl: '', artwork: '/a.png', tips } as unknown as Show };
}

describe('build-time discovery documents', () => {
  it('stop the build on an unsupported tip network or a malformed wallet', () => {
    expect(() => buildX402Supported(show({ network: 'dogecoin' }))).toThrow(/tips.network "dogecoin" is not supported/);
    expect(() => buildX402DiscoveryResources(show({ network: 'base', walletAddress: 'me.eth' }))).toThrow(/not an EVM address/);
  });

  it('list the tip endpoint only when a wallet is configured', () => {
    const wallet = '0x2222222222222222222222222222222222222222';
    const doc = buildX402DiscoveryResources(show({ network: 'base', walletAddress: wallet }), new Date('2026-01-01T00:00:00Z'));
    expect(doc.items[0]).toMatchObject({ resource: 'https://podcast.example/donate', lastUpdated: 1767225600 });
    expect(doc.items[0]!.accepts[0]).toMatchObject({ network: 'eip155:8453', payTo: wallet });
    expect(buildX402DiscoveryResources(show({ network: 'base' })).items).toEqual([]);
    expect(tipDocsSection(show({ network: 'base', walletAddress: wallet }))).toContain('eip155:8453');
    expect(tipDocsSection(show({ network: 'base' }))).toMatch(/not set up/);
  });

  it('build every URL from the site URL', () => {
    const s = show({ network: 'base-sepolia' }, 'https://example.org/podcast');
    expect(buildAuthorizationServerMetadata(s).token_endpoint).toBe('https://example.org/podcast/oauth/token');
    expect(buildProtectedResourceMetadata(s).resource).toBe('https://example.org/podcast');
    for (const href of catalogLinks(buildApiCatalog(s))) expect(href.startsWith('https://example.org/podcast/'), href).toBe(true);
    expect(authDocsSection(s)).toContain('https://example.org/podcast/auth.md');
  });
});
