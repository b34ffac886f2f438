/**
 * The JSON view of an organization's Ed25519 public keys (`GET /webhook-keys`, the rotations' answer):
 * public halves only; the sealed private key never leaves the service.
 */
import type { Organization, SignatureScheme } from '#domain/model';
import type { PreviousSigningKey, SigningKey } from '#domain/signing/signing-keys';
import { renderTimestamp } from '#domain/time';

/** One public key (the `WebhookKey` schema). */
export interface WebhookKeyView {
  /** `whk_…`, as attempts' `signing_keys` name it. */
  readonly key_id: string;
  /** `whpk_` + base64 of the raw 32-byte Ed25519 public key. */
  readonly public_key: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly created_at: string;
  /** Present on a replaced key during its overlap: it stops signing then. */
  readonly expires_at?: string;
}

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
export interface SignatureSchemesView {
  readonly signature_schemes: readonly SignatureScheme[];
}

/** The schemes the organization's webhooks carry (every scheme unless it chose fewer). */
export function toSignatureSchemesView(org: Pick<Organization, 'signatureSchemes'>): SignatureSchemesView {
  return { signature_schemes: org.signatureSchemes ?? ['v1', 'v1a'] };
}
