/**
 * Sections for docs.md, AGENTS.md and llms.txt about the credential surface and tips, generated from the modules
 * that serve them. The lead's generators include what they need; nothing here writes a file.
 */
import type { LoadedContent } from '../../content/load.ts';
import { siteUrls } from '../urls.ts';
import { OAUTH_ENDPOINTS, OAUTH_ERRORS, OAUTH_PATHS, SCOPES, SCOPE_DESCRIPTIONS, registrationTemplates } from '../../../contract/oauth.ts';
import { TIP, X402_DISCOVERY_PATH, X402_SUPPORTED_PATH, resolveNetwork } from '../../../contract/tips.ts';
import { OPENAPI_MEDIA_TYPE } from './api-catalog.ts';

export { OAUTH_ENDPOINTS, OAUTH_ERRORS, SCOPES, SCOPE_DESCRIPTIONS, registrationTemplates, OPENAPI_MEDIA_TYPE };

/** For DocsExtras.oauthErrors (src/build/docs.ts). */
export function oauthDocsExtras() {
  return { oauthErrors: OAUTH_ERRORS };
}

/** "## Optional credentials": what they are for, the scopes, the endpoints, where the walkthrough is. */
export function authDocsSection(content: Pick<LoadedContent, 'show'>): string {
  const u = siteUrls(content.show);
  return `## Optional credentials

Every read is public; credentials exist for agents and libraries that expect OAuth and grant nothing extra. A bearer
token is accepted on the read endpoints and POST /mcp; an invalid one is answered \`401\` with
\`WWW-Authenticate: Bearer error="invalid_token"\`. Walkthrough: [auth.md](${u.authMd}). Metadata:
[oauth-authorization-server](${u.abs(OAUTH_PATHS.authorizationServer)}), [oauth-protected-resource](${u.abs(OAUTH_PATHS.protectedResource)}).

Scopes: ${SCOPES.map((s) => `\`${s}\` (${SCOPE_DESCRIPTIONS[s].toLowerCase()})`).join(', ')}. One public client,
\`client_id=public\`, no secret, PKCE S256. Tokens live ${3600 / 60} minutes.

| Method | Path | What it does |
|---|---|---|
${OAUTH_ENDPOINTS.map((e) => `| ${e.method} | ${e.path} | ${e.purpose} |`).join('\n')}
`;
}

/** "## Tips": the terms POST /donate advertises. */
export function tipDocsSection(content: Pick<LoadedContent, 'show'>): string {
  const u = siteUrls(content.show);
  const { tips } = content.show;
  const network = resolveNetwork(tips.network);
  const payable = Boolean(tips.walletAddress && network);
  return `## Tips

\`POST ${u.donate}\` always answers \`402 Payment Required\`: tipping is voluntary and nothing is behind a paywall.
${
  payable
    ? `It offers ${TIP.asset} on ${network!.label} (\`${network!.caip2}\`) to \`${tips.walletAddress}\`, from ${TIP.minAmount} (${TIP.suggestedAmount} suggested, ${TIP.currency}),
through x402 (v2 in the \`PAYMENT-REQUIRED\` header, v1 in \`X-Payment-Required\`) and MPP (a \`Payment\` challenge in
\`WWW-Authenticate\`)${tips.url ? `, or the [tip page](${tips.url})` : ''}. x402 documents: [supported](${u.abs(X402_SUPPORTED_PATH)}),
[discovery](${u.abs(X402_DISCOVERY_PATH)}).`
    : tips.url
      ? `No wallet is configured; the answer points at the [tip page](${tips.url}).`
      : 'Tipping is not set up (no wallet or tip page configured); the answer says so.'
}
`;
}
