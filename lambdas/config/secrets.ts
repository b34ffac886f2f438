/**
 * The secrets Herald keeps encrypted (see `lambdas/domain/signing/secret-sealer.ts`) and which function
 * may seal or open which kind: declared once here, granted by the stack as KMS permissions conditioned on
 * the encryption context's `kind`.
 */
import type { FunctionKey } from './functions';

/** Every kind of sealed secret. */
export const SECRET_KINDS = ['signing-key', 'tls-client-key'] as const;

/** A kind of sealed secret: an organization's Ed25519 private key, an endpoint's TLS client key. */
export type SecretKind = (typeof SECRET_KINDS)[number];

/** The encryption-context key that carries a secret's kind (KMS conditions match on it). */
export const SECRET_KIND_CONTEXT_KEY = 'herald:kind';
/** The encryption-context key that carries a secret's owner (organization or account). */
export const SECRET_OWNER_CONTEXT_KEY = 'herald:owner';

/** What a function may do with sealed secrets: open (decrypt) and seal (generate data keys) per kind. */
export interface SecretAccess {
  readonly open?: readonly SecretKind[];
  readonly seal?: readonly SecretKind[];
}

/**
 * Only the two functions that send webhooks open signing keys and client keys (they sign and present
 * them): the consumer, and `sendTestEvent`, which sends a test event as an attempt goes; only the
 * functions that create or replace them seal: `administer` (a new organization, the operator's rotation
 * and account writes) and `manageSettings` (an organization's own rotation and account writes). Nobody
 * else touches the secrets key.
 */
export const SECRET_ACCESS: Readonly<Partial<Record<FunctionKey, SecretAccess>>> = {
  consumer: { open: ['signing-key', 'tls-client-key'] },
  sendTestEvent: { open: ['signing-key', 'tls-client-key'] },
  administer: { seal: ['signing-key', 'tls-client-key'] },
  manageSettings: { seal: ['signing-key', 'tls-client-key'] },
};
