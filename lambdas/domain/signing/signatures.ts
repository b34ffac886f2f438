/**
 * The signatures every webhook carries: `X-Signature` (HMAC-SHA256 of the body, fixed at publish) and
 * the Standard Webhooks `webhook-signature` of each attempt, by the current and, during an overlap, the
 * previous webhook token.
 */
import { createHmac } from 'node:crypto';
import { previousTokenSigns, type SigningTokens, webhookKey } from './webhook-token';

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
  if (!previous || !previousTokenSigns(tokens, nowMs)) return current;
  return `${current} ${standardSignature(webhookKey(previous.token), id, timestampSeconds, body)}`;
}
