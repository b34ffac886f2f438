/**
 * The requests of portal sign-in: the operator's `POST /admin/organizations/{org}/portal-links`
 * (`{"scope", "ttl_minutes"?}`) and the page's `POST /portal/session` (`{"token"}`).
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { KeyScope } from '#config/routes';
import { DEFAULT_LINK_MINUTES, MAX_LINK_MINUTES } from '#domain/portal-access';
import { KEY_SCOPE } from '#http/organizations/api-key-request';
import { readBody } from '#http/read-request';
import { body, closed, int, optional, ref, text, withReason } from '#http/schema';

/** Longest token `POST /portal/session` reads (a link's token has 43 characters). */
const MAX_TOKEN_LENGTH = 200;

/** The body of a new sign-in link, a component of the document. */
export const PORTAL_LINK_REQUEST = closed({
  scope: withReason(ref('KeyScope', KEY_SCOPE), 'is required: "read" or "manage"'),
  ttl_minutes: optional(
    int(`How long the link signs in; default ${DEFAULT_LINK_MINUTES}.`, 1, { maximum: MAX_LINK_MINUTES }),
  ),
});
/** The operator's link request takes it, by reference. */
export const PORTAL_LINK_BODY = body(ref('PortalLinkRequest', PORTAL_LINK_REQUEST));

/** The body of a sign-in, a component of the document. */
export const PORTAL_SESSION_REQUEST = closed({
  token: withReason(
    text('The `token` of a portal link (its URL fragment).', { minLength: 1, maxLength: MAX_TOKEN_LENGTH }),
    'is required: the token of a portal sign-in link',
  ),
});
/** `POST /portal/session` takes it, by reference. */
export const PORTAL_SESSION_BODY = body(ref('PortalSessionRequest', PORTAL_SESSION_REQUEST));

/**
 * The link's scope and lifetime (whole minutes, 1 to {@link MAX_LINK_MINUTES}, default
 * {@link DEFAULT_LINK_MINUTES}).
 *
 * @throws ValidationError naming the field
 */
export function parsePortalLinkRequest(event: APIGatewayProxyEvent): { scope: KeyScope; ttlMinutes: number } {
  const { scope, ttl_minutes } = readBody(event, PORTAL_LINK_BODY);
  return { scope, ttlMinutes: ttl_minutes ?? DEFAULT_LINK_MINUTES };
}

/**
 * The token of the sign-in link the page exchanges for a session.
 *
 * @throws ValidationError naming `token`
 */
export function parsePortalSessionRequest(event: APIGatewayProxyEvent): { token: string } {
  return { token: readBody(event, PORTAL_SESSION_BODY).token };
}
