/**
 * The signatures every webhook attempt carries, both made when the attempt is sent and from the same
 * list of tokens (the current one and, during an overlap, the previous one, new first): Herald's
 * `X-Signature` and the Standard Webhooks `webhook-signature`. Both cover the attempt's timestamp, so a
 * receiver that rejects old timestamps cannot be fooled by a replayed webhook, and a token stops
 * signing with the first attempt after its overlap ends (or at once, when rotated without one).
 */
import { createHmac } from 'node:crypto';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '#domain/model';
import { asymmetricSignature, keysSigningAt, type OpenedSigningKey } from './signing-keys';
import { type SigningTokens, signingTokens, webhookKey, webhookTokenId } from './webhook-token';

/** The form of an `X-Signature` header: the timestamp, then one or two (during an overlap) signatures. */
export const X_SIGNATURE_PATTERN = /^t=[0-9]+(,sha256=[0-9a-f]{64}){1,2}$/;

/** The signature headers of one attempt, and which tokens made them. */
export interface AttemptSignatures {
  /** `t=<timestamp>,sha256=<hex>[,sha256=<hex>]`: one entry per signing token, new first. */
  readonly xSignature: string;
  /** `v1,<base64>[ v1,<base64>]`: one signature per signing token, new first. */
  readonly webhookSignature: string;
  /** The ids ({@link webhookTokenId}) of the tokens that signed, in the headers' order. */
  readonly tokenIds: readonly string[];
}

/**
 * Signs one attempt with every token that signs at `nowMs`. Both headers come from one token list, so
 * a receiver holding either secret verifies either header at every moment, across a rotation too.
 *
 * @param id - the event id, the `webhook-id` header
 * @param timestampSeconds - Unix seconds of the attempt, the `webhook-timestamp` header and `t=`
 * @param nowMs - the attempt's clock, which the overlap's end is compared with
 */
export function signAttempt(
  tokens: SigningTokens,
  id: string,
  timestampSeconds: number,
  body: string,
  nowMs: number,
): AttemptSignatures {
  const signing = signingTokens(tokens, nowMs);
  const keys = signing.map(webhookKey);
  return {
    xSignature: [
      `t=${timestampSeconds}`,
      ...keys.map((key) => timestampedSignature(key, timestampSeconds, body)),
    ].join(','),
    webhookSignature: keys.map((key) => standardSignature(key, id, timestampSeconds, body)).join(' '),
    tokenIds: signing.map(webhookTokenId),
  };
}

/** The signature headers of one attempt under an organization's schemes. */
export interface WebhookSignatures {
  /** Absent when the organization turned `v1` (HMAC) off. */
  readonly xSignature?: string | undefined;
  /** `v1,…` entries (one per signing token), then `v1a,…` entries (one per signing key), space-separated. */
  readonly webhookSignature: string;
  /** The ids of the tokens and keys that signed, in the header's order. */
  readonly keyIds: readonly string[];
}

/**
 * Signs one attempt with every scheme the organization keeps on: the HMAC token(s) of {@link signAttempt}
 * and the opened Ed25519 key(s) that sign at `nowMs`. Should the setting leave nothing that can sign (only
 * `v1a`, but no key), the HMAC signs: a webhook is never sent unsigned.
 *
 * @param schemes - the organization's setting; every scheme when absent
 */
export function signWebhook(
  tokens: SigningTokens,
  keys: readonly OpenedSigningKey[],
  schemes: readonly SignatureScheme[] | undefined,
  message: { readonly id: string; readonly timestampSeconds: number; readonly body: string },
  nowMs: number,
): WebhookSignatures {
  const on = schemes ?? SIGNATURE_SCHEMES;
  const { id, timestampSeconds, body } = message;
  const asymmetric = on.includes('v1a') ? keysSigningAt(keys, nowMs) : [];
  const v1a = asymmetric.map((key) =>
    asymmetricSignature(key.privateKey, id, seconds(timestampSeconds), body),
  );
  if (!on.includes('v1') && v1a.length > 0) {
    return { webhookSignature: v1a.join(' '), keyIds: asymmetric.map((key) => key.id) };
  }
  const hmac = signAttempt(tokens, id, timestampSeconds, body, nowMs);
  return {
    xSignature: hmac.xSignature,
    webhookSignature: [hmac.webhookSignature, ...v1a].join(' '),
    keyIds: [...hmac.tokenIds, ...asymmetric.map((key) => key.id)],
  };
}

/**
 * One entry of `X-Signature`: `sha256=<hex HMAC-SHA256(key, "<timestamp>.<body>")>`.
 *
 * @param timestampSeconds - the `t=` of the header, the attempt's `webhook-timestamp`
 */
export function timestampedSignature(key: Uint8Array, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${seconds(timestampSeconds)}.${body}`, 'utf8');
  return `sha256=${mac.digest('hex')}`;
}

/**
 * The Standard Webhooks signature `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, one entry
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
  const mac = createHmac('sha256', key).update(`${id}.${seconds(timestampSeconds)}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/** A timestamp as signed: whole non-negative seconds, or a programming error. */
function seconds(timestampSeconds: number): number {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`signature timestamp must be whole non-negative seconds, got ${timestampSeconds}`);
  }
  return timestampSeconds;
}
