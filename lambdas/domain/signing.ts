/**
 * Secrets and signatures: the organization's webhook token, the signatures every webhook carries, and
 * API keys (stored only as hashes).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Prefix of a webhook token, as the Standard Webhooks libraries expect it. */
export const WEBHOOK_TOKEN_PREFIX = 'whsec_';

/** Prefix of an API key; distinctive so secret scanners and people recognise a leaked key. */
export const API_KEY_PREFIX = 'herald_';

/** Standard Webhooks advises signing keys of 24 to 64 bytes. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A webhook token that is not `whsec_` + base64 of 24 to 64 bytes: a configuration fault (500), not bad input. */
export class WebhookTokenError extends Error {
  constructor(reason: string) {
    super(`Malformed webhook token: ${reason}`);
    this.name = 'WebhookTokenError';
  }
}

/** A new webhook token: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookToken(): string {
  return WEBHOOK_TOKEN_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The HMAC key of a webhook token: the base64-decoded part after `whsec_`.
 *
 * @throws WebhookTokenError when the prefix, the base64 or the key length is wrong; the message never
 *   contains the token
 */
export function webhookKey(token: string): Buffer {
  if (!token.startsWith(WEBHOOK_TOKEN_PREFIX))
    throw new WebhookTokenError(`must start with ${WEBHOOK_TOKEN_PREFIX}`);
  const encoded = token.slice(WEBHOOK_TOKEN_PREFIX.length);
  // Buffer.from skips invalid characters silently; check first so a damaged token cannot yield a weak key.
  if (encoded === '' || !BASE64.test(encoded))
    throw new WebhookTokenError('the part after whsec_ is not base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
    throw new WebhookTokenError(
      `the key must have ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes, has ${key.length}`,
    );
  }
  return key;
}

/** `sha256=<hex HMAC-SHA256(key, body)>`: the `X-Signature` header and the event's `signature` field. */
export function signBody(key: Uint8Array, body: string): string {
  return `sha256=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`;
}

/**
 * The Standard Webhooks signature `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, the value
 * of the `webhook-signature` header next to `webhook-id` and `webhook-timestamp`.
 *
 * @param timestampSeconds - Unix seconds of the attempt, the `webhook-timestamp` header
 */
export function standardSignature(
  key: Uint8Array,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(
      `standardSignature: timestamp must be whole non-negative seconds, got ${timestampSeconds}`,
    );
  }
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** A new API key: `herald_` + base64url of 32 random bytes. Shown once; only its hash is stored. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 hex of an API key (or a portal link token), the stored lookup key. A plain hash suffices: the
 * secret has 256 random bits,
 * so there is nothing to brute-force and a slow hash would only slow every authorizer call.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The tokens that sign an organization's webhooks: the current one and, during an overlap, the previous. */
export interface SigningTokens {
  readonly webhookToken: string;
  readonly previousWebhookToken?: { readonly token: string; readonly expiresAt: string } | undefined;
}

/**
 * The `webhook-signature` header value: the current token's `v1,` signature and, while the previous
 * token has not expired at `nowMs`, the previous token's one after a space (the Standard Webhooks form
 * for rotation), so a receiver still holding the old secret keeps verifying during the overlap.
 *
 * @param timestampSeconds - the `webhook-timestamp` of the attempt
 * @param nowMs - the clock the overlap's expiry is compared with
 */
export function webhookSignatureHeader(
  tokens: SigningTokens,
  id: string,
  timestampSeconds: number,
  body: string,
  nowMs: number,
): string {
  const current = standardSignature(webhookKey(tokens.webhookToken), id, timestampSeconds, body);
  const previous = tokens.previousWebhookToken;
  if (!previous || Date.parse(previous.expiresAt) <= nowMs) return current;
  return `${current} ${standardSignature(webhookKey(previous.token), id, timestampSeconds, body)}`;
}
