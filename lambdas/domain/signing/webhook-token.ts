/**
 * The organization's webhook token: its form (`whsec_` + base64, as the Standard Webhooks libraries
 * expect), the HMAC key inside it, and the overlap during which a replaced token still signs.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Prefix of a webhook token, as the Standard Webhooks libraries expect it. */
export const WEBHOOK_TOKEN_PREFIX = 'whsec_';

/** Standard Webhooks advises signing keys of 24 to 64 bytes. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** How long the replaced token keeps signing webhooks after a rotation unless told otherwise. */
export const DEFAULT_OVERLAP_HOURS = 24;
/** The longest overlap: a week. */
export const MAX_OVERLAP_HOURS = 168;

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

/** The tokens that sign an organization's webhooks: the current one and, during an overlap, the previous. */
export interface SigningTokens {
  readonly webhookToken: string;
  readonly previousWebhookToken?: { readonly token: string; readonly expiresAt: string } | undefined;
}

/** Prefix of a token's id, so an id is never mistaken for a token. */
export const TOKEN_ID_PREFIX = 'whk_';
/** The form of a token's id ({@link webhookTokenId}). */
export const TOKEN_ID_PATTERN = /^whk_[0-9a-f]{16}$/;

/**
 * The short, non-secret id of a webhook token: `whk_` + the first 8 bytes of the SHA-256 of the token as
 * written (`whsec_…`), in hex. Attempts record the ids of the tokens that signed them, and the token views
 * show them, so an operator can tell which secret signed what without either side showing a secret. 64
 * bits of a hash reveal nothing usable about a 256-bit key.
 */
export function webhookTokenId(token: string): string {
  return hashId(TOKEN_ID_PREFIX, token);
}

/** `prefix` + the first 8 bytes of the SHA-256 of `text` in hex: the short, non-secret id of a key. */
export function hashId(prefix: string, text: string): string {
  return prefix + createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

/** Whether the previous token still signs at `nowMs`. */
export function previousTokenSigns(tokens: SigningTokens, nowMs: number): boolean {
  const previous = tokens.previousWebhookToken;
  return previous !== undefined && Date.parse(previous.expiresAt) > nowMs;
}

/**
 * The tokens that sign a webhook sent at `nowMs`, new first: the current one and, during an overlap, the
 * previous one. Every signature header of an attempt is made from this one list.
 */
export function signingTokens(tokens: SigningTokens, nowMs: number): readonly string[] {
  const previous = tokens.previousWebhookToken;
  return previous && previousTokenSigns(tokens, nowMs)
    ? [tokens.webhookToken, previous.token]
    : [tokens.webhookToken];
}

/** The tokens as they sign at `nowMs`: a previous token whose overlap has ended is left out. */
export function tokensAt<T extends SigningTokens>(tokens: T, nowMs: number): T {
  return previousTokenSigns(tokens, nowMs) ? tokens : { ...tokens, previousWebhookToken: undefined };
}
