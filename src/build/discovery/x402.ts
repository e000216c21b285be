/**
 * /.well-known/x402/supported and /.well-known/discovery/resources: what POST /donate's terms point at, from the
 * show's tip settings. An unsupported network or a malformed wallet stops the build with a message saying why.
 */
import type { LoadedContent } from '../../content/load.ts';
import { siteUrls } from '../urls.ts';
import {
  X402_DISCOVERY_PATH,
  X402_SUPPORTED_PATH,
  tipSettingsProblems,
  x402DiscoveryResources,
  x402Supported,
  type TipAddresses,
} from '../../../contract/tips.ts';
import { X402DiscoveryResourcesSchema, X402SupportedSchema } from '../../../contract/schemas/donate.ts';

export function tipAddresses(content: Pick<LoadedContent, 'show'>): TipAddresses {
  const u = siteUrls(content.show);
  return { base: u.base, donate: u.donate, supported: u.abs(X402_SUPPORTED_PATH), discovery: u.abs(X402_DISCOVERY_PATH), docs: u.docsMd };
}

function checkTips(content: Pick<LoadedContent, 'show'>): void {
  const problems = tipSettingsProblems(content.show.tips);
  if (problems.length) throw new Error(`content/podcast.yaml: ${problems.join('; ')}`);
}

export function buildX402Supported(content: Pick<LoadedContent, 'show'>) {
  checkTips(content);
  return X402SupportedSchema.parse(x402Supported(content.show.tips));
}

export function buildX402DiscoveryResources(content: Pick<LoadedContent, 'show'>, now = new Date()) {
  checkTips(content);
  const doc = x402DiscoveryResources(content.show.tips, tipAddresses(content), content.show.title, Math.floor(now.getTime() / 1000));
  return X402DiscoveryResourcesSchema.parse(doc);
}
