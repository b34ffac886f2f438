/**
 * The body of the operator's `POST /admin/organizations/{org}/api-keys`: `{"name", "scope",
 * "expires_at"?}`; and a key's scope, as every request and view names it.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { KEY_SCOPES, type KeyScope } from '#config/routes';
import { ValidationError } from '#domain/errors';
import { readBody, refusal } from '#http/read-request';
import { body, closed, int, oneOfValues, optional, ref, text, withReason } from '#http/schema';

/** Longest API key name. */
export const MAX_API_KEY_NAME_LENGTH = 100;

/** What an API key may do, a component of the document. */
export const KEY_SCOPE = oneOfValues(
  KEY_SCOPES,
  '`read`: events and accounts. `manage`: also redeliver and change endpoints and the token.',
);

const NAME = text(`1 to ${MAX_API_KEY_NAME_LENGTH} characters.`, {
  minLength: 1,
  maxLength: MAX_API_KEY_NAME_LENGTH,
});
const EXPIRES_AT = withReason(
  int('Epoch seconds; the key is refused from then on.', 0),
  'must be whole epoch seconds in the future',
);

/** The body of a new API key. */
export const API_KEY_BODY = body(
  closed({
    name: NAME,
    scope: withReason(ref('KeyScope', KEY_SCOPE), 'must be "read" or "manage"'),
    expires_at: optional(EXPIRES_AT),
  }),
);

/**
 * The new key's name (trimmed, 1 to {@link MAX_API_KEY_NAME_LENGTH} characters), scope and optional
 * expiry in whole epoch seconds after `nowMs`, by {@link API_KEY_BODY}.
 *
 * @throws ValidationError naming the first bad field
 */
export function parseApiKeyRequest(
  event: APIGatewayProxyEvent,
  nowMs: number,
): { name: string; scope: KeyScope; expiresAt: number | undefined } {
  const { name, scope, expires_at: expiresAt } = readBody(event, API_KEY_BODY);
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new ValidationError('name', refusal(NAME));
  if (expiresAt !== undefined && expiresAt * 1000 <= nowMs) {
    throw new ValidationError('expires_at', refusal(EXPIRES_AT));
  }
  return { name: trimmed, scope, expiresAt };
}
