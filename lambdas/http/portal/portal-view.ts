/**
 * The JSON views of portal sign-in: the one-time link the operator hands on, and the session the page
 * signs in with. The link's expiry is for people (the API's `YYYY-MM-DD HH:MM:SS`); the session's is for
 * the page, ISO 8601 UTC, which it reads with `Date`.
 */
import type { KeyScope } from '#config/routes';
import { renderTimestamp } from '#domain/time';
import { joinUrl } from '#domain/urls';
import type { PORTAL_LINK, PORTAL_SESSION } from '#http/openapi/portal';
import type { Static } from '#http/schema';

/** The answer of `POST /admin/organizations/{org}/portal-links` (the `PortalLink` schema). */
export type PortalLinkView = Static<typeof PORTAL_LINK>;

/** The answer of `POST /portal/session` (the `PortalSession` schema). */
export type PortalSessionView = Static<typeof PORTAL_SESSION>;

/** The link that opens the portal at `baseUrl` and signs in once. */
export function toPortalLinkView(
  grant: { readonly token: string; readonly expiresAt: number },
  baseUrl: string,
): PortalLinkView {
  return {
    url: `${joinUrl(baseUrl, '/portal')}#token=${grant.token}`,
    expires_at: renderTimestamp(new Date(grant.expiresAt * 1000).toISOString()),
  };
}

/** A signed-in session with the secret of its API key. */
export function toPortalSessionView(session: {
  readonly secret: string;
  readonly scope: KeyScope;
  readonly expiresAt: number;
  readonly organization: { readonly id: string; readonly name: string };
}): PortalSessionView {
  return {
    api_key: session.secret,
    scope: session.scope,
    expires_at: new Date(session.expiresAt * 1000).toISOString(),
    org: { id: session.organization.id, name: session.organization.name },
  };
}
