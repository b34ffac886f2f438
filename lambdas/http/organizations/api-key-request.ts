/**
 * The body of the operator's `POST /admin/organizations/{org}/api-keys`: `{"name", "scope",
 * "expires_at"?}`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { KEY_SCOPES, type KeyScope } from '#config/routes';
import { ValidationError } from '#domain/errors';
import { jsonBody } from '#http/request';

/** Longest API key name. */
export const MAX_API_KEY_NAME_LENGTH = 100;

/**
 * The new key's name (trimmed, 1 to {@link MAX_API_KEY_NAME_LENGTH} characters), scope and optional
 * expiry in whole epoch seconds after `nowMs`.
 *
 * @throws ValidationError naming the first bad field
 */
export function parseApiKeyRequest(
  event: APIGatewayProxyEvent,
  nowMs: number,
): { name: string; scope: KeyScope; expiresAt: number | undefined } {
  const body = jsonBody(event, ['name', 'scope', 'expires_at']);
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name.length === 0 || name.length > MAX_API_KEY_NAME_LENGTH) {
    throw new ValidationError('name', `must be a string of 1 to ${MAX_API_KEY_NAME_LENGTH} characters`);
  }
  const scope = KEY_SCOPES.find((known) => known === body.scope);
  if (scope === undefined) throw new ValidationError('scope', 'must be "read" or "manage"');
  const expiresAt = body.expires_at;
  if (
    expiresAt !== undefined &&
    (typeof expiresAt !== 'number' || !Number.isInteger(expiresAt) || expiresAt * 1000 <= nowMs)
  ) {
    throw new ValidationError('expires_at', 'must be whole epoch seconds in the future');
  }
  return { name, scope, expiresAt };
}
