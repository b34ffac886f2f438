/**
 * What the endpoint-security use-cases need: the store of an endpoint's own item, and the payload
 * encryption (a JOSE library behind a port: the domain stays free of it).
 */
import type { EndpointSecrets, EndpointSecuritySummary, RsaPublicJwk } from './endpoint-security';

/** The endpoint's item beside its account item, and the summary on the account item. */
export interface EndpointSecretStore {
  /** The endpoint's material; undefined when it has none. */
  getSecrets(iban: string, options?: { readonly consistent?: boolean }): Promise<EndpointSecrets | undefined>;
  /**
   * Stores the material, then the summary on the organization's account (removed when empty). False,
   * with nothing summarised, when the account is not the organization's (or was deleted meanwhile).
   */
  saveSecurity(
    iban: string,
    orgId: string,
    summary: EndpointSecuritySummary,
    secrets: EndpointSecrets,
  ): Promise<boolean>;
  /** Deletes the organization's material of the IBAN, so a later owner of the IBAN starts without any. */
  removeSecrets: RemoveEndpointSecrets;
}

/** Removes an endpoint's material (its account was deleted); nothing when it has none or is another's. */
export type RemoveEndpointSecrets = (iban: string, orgId: string) => Promise<void>;

/** Encrypts a webhook body to the receiver's key. */
export interface PayloadEncrypter {
  /** A JWE compact serialization (`RSA-OAEP-256`, `A256GCM`, `kid` = the key's thumbprint). */
  encrypt(key: RsaPublicJwk, keyId: string, plaintext: string): Promise<string>;
}
