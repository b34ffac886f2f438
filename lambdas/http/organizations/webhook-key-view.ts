/**
 * The JSON view of an organization's Ed25519 public keys (`GET /webhook-keys`, the rotations' answer):
 * public halves only; the sealed private key never leaves the service.
 */
import { type Organization, SIGNATURE_SCHEMES } from '#domain/model';
import type { PreviousSigningKey, SigningKey } from '#domain/signing/signing-keys';
import { renderTimestamp } from '#domain/time';
import type { SIGNATURE_SCHEMES_VIEW, WEBHOOK_KEY } from '#http/openapi/webhook-keys';
import type { Static } from '#http/schema';

/** One public key (the `WebhookKey` schema). */
export type WebhookKeyView = Static<typeof WEBHOOK_KEY>;

/** A key as listed: only the public attributes are copied. */
export function toWebhookKeyView(key: SigningKey | PreviousSigningKey): WebhookKeyView {
  return {
    key_id: key.id,
    public_key: key.publicKey,
    created_at: renderTimestamp(key.createdAt),
    ...('expiresAt' in key ? { expires_at: renderTimestamp(key.expiresAt) } : {}),
  };
}

/** The organization's signature setting (the `SignatureSchemes` schema). */
export type SignatureSchemesView = Static<typeof SIGNATURE_SCHEMES_VIEW>;

/**
 * The schemes the organization's webhooks carry: its setting (every scheme unless it chose fewer), less
 * `v1a` while it has no signing key (its webhooks then carry the HMAC only).
 */
export function toSignatureSchemesView(
  org: Pick<Organization, 'signatureSchemes' | 'signingKey'>,
): SignatureSchemesView {
  const chosen = org.signatureSchemes ?? SIGNATURE_SCHEMES;
  const carried = org.signingKey ? chosen : chosen.filter((scheme) => scheme !== 'v1a');
  return { signature_schemes: carried.length > 0 ? carried : ['v1'] };
}
