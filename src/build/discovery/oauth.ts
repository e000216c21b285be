/**
 * The OAuth metadata documents, written at build time from the same data the handlers use
 * (contract/oauth.ts), so the advertised endpoints, scopes and templates are the served ones.
 */
import type { LoadedContent } from '../../content/load.ts';
import { siteUrls } from '../urls.ts';
import {
  authorizationServerMetadata,
  openidConfiguration,
  protectedResourceMetadata,
} from '../../../contract/oauth.ts';
import {
  AuthorizationServerMetadataSchema,
  OpenIdConfigurationSchema,
  ProtectedResourceMetadataSchema,
} from '../../../contract/schemas/oauth.ts';

/** /.well-known/oauth-protected-resource (RFC 9728). */
export function buildProtectedResourceMetadata(content: Pick<LoadedContent, 'show'>) {
  const u = siteUrls(content.show);
  return ProtectedResourceMetadataSchema.parse(protectedResourceMetadata(u.base, content.show.title));
}

/** /.well-known/oauth-authorization-server (RFC 8414). */
export function buildAuthorizationServerMetadata(content: Pick<LoadedContent, 'show'>) {
  return AuthorizationServerMetadataSchema.parse(authorizationServerMetadata(siteUrls(content.show).base));
}

/** /.well-known/openid-configuration */
export function buildOpenIdConfiguration(content: Pick<LoadedContent, 'show'>) {
  return OpenIdConfigurationSchema.parse(openidConfiguration(siteUrls(content.show).base));
}
