/**
 * The requests of portal sign-in: the operator's `POST /admin/organizations/{org}/portal-links`
 * (`{"scope", "ttl_minutes"?}`) and the page's `POST /portal/session` (`{"token"}`).
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { KEY_SCOPES, type KeyScope } from '#config/routes';
import { ValidationError } from '#domain/errors';
import { DEFAULT_LINK_MINUTES, MAX_LINK_MINUTES } from '#domain/portal-access';
import { optionalJsonBody } from '#http/request';

/** Longest token `POST /portal/session` reads (a link's token has 43 characters). */
const MAX_TOKEN_LENGTH = 200;

/**
 * The link's scope and lifetime (whole minutes, 1 to {@link MAX_LINK_MINUTES}, default
 * {@link DEFAULT_LINK_MINUTES}).
 *
 * @throws ValidationError naming the field
 */
export function parsePortalLinkRequest(event: APIGatewayProxyEvent): { scope: KeyScope; ttlMinutes: number } {
  const body = optionalJsonBody(event, ['scope', 'ttl_minutes']);
  const scope = KEY_SCOPES.find((known) => known === body.scope);
  if (scope === undefined) throw new ValidationError('scope', 'is required: "read" or "manage"');
  const ttl = body.ttl_minutes ?? DEFAULT_LINK_MINUTES;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_LINK_MINUTES) {
    throw new ValidationError('ttl_minutes', `must be whole minutes from 1 to ${MAX_LINK_MINUTES}`);
  }
  return { scope, ttlMinutes: ttl };
}

/**
 * The token of the sign-in link the page exchanges for a session.
 *
 * @throws ValidationError naming `token`
 */
export function parsePortalSessionRequest(event: APIGatewayProxyEvent): { token: string } {
  const { token } = optionalJsonBody(event, ['token']);
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
    throw new ValidationError('token', 'is required: the token of a portal sign-in link');
  }
  return { token };
}
