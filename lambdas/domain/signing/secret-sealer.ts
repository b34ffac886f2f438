/**
 * The port through which secrets Herald must use again (an organization's Ed25519 private key, an
 * endpoint's TLS client key) are stored encrypted: sealed with a context naming what the secret is and
 * whose, and opened only with the same context, so a sealed value moved to another organization's item
 * does not open. In AWS a KMS envelope (a data key per secret), locally AES-256-GCM under a key in
 * `.herald/`.
 */
import type { SecretKind } from '#config/secrets';

export type { SecretKind } from '#config/secrets';

/** What a sealed secret is bound to: opening it with any other context fails. */
export interface SecretContext {
  readonly kind: SecretKind;
  /** The organization (or account) the secret belongs to. */
  readonly owner: string;
}

/** Seals and opens secrets; a sealed value is a printable string, safe to store next to other attributes. */
export interface SecretSealer {
  seal(plaintext: Uint8Array, context: SecretContext): Promise<string>;
  /**
   * @throws SealerUnavailableError when the key service did not answer now (throttled, failing, out of
   * reach): it says nothing about the value, and opening it again later may succeed
   * @throws otherwise when the value was not sealed for `context`, was altered, or may not be opened
   */
  open(sealed: string, context: SecretContext): Promise<Uint8Array>;
}

/**
 * The key service behind a {@link SecretSealer} did not answer now (throttled, an internal error, a
 * timeout, the network): a failure of the moment, not of the sealed value.
 */
export class SealerUnavailableError extends Error {
  constructor(options?: ErrorOptions) {
    super('the key service did not answer; try again later', options);
    this.name = 'SealerUnavailableError';
  }
}

/**
 * The context an endpoint's TLS client key is sealed with: its account under its organization, and an
 * extra endpoint's id, so a key copied to another endpoint does not open.
 */
export function clientKeyContext(orgId: string, iban: string, extra?: string): SecretContext {
  return {
    kind: 'tls-client-key',
    owner: extra === undefined ? `${orgId}/${iban}` : `${orgId}/${iban}/${extra}`,
  };
}

/** The context an organization's signing key is sealed with. */
export function signingKeyContext(orgId: string): SecretContext {
  return { kind: 'signing-key', owner: orgId };
}
