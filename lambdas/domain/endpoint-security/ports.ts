/**
 * What the endpoint-security use-cases need: the store of an endpoint's own item, the payload encryption
 * (a JOSE library behind a port: the domain stays free of it), and the check that the runtime's TLS can
 * use an endpoint's material.
 */
import type { EndpointAddress } from '#domain/endpoints/address';
import type { ClientTls, EndpointSecrets, EndpointSecuritySummary, RsaPublicJwk } from './endpoint-security';

/** An endpoint's material as committed, with the version a save replacing it must name. */
export interface StoredEndpointSecurity {
  readonly secrets?: EndpointSecrets;
  /** The summary written with the material (undefined for material stored before summaries were). */
  readonly summary?: EndpointSecuritySummary | undefined;
  /** 0 when the organization has no material for the IBAN. */
  readonly version: number;
}

/** What a save writes: the whole material, its summary, and the version it replaces. */
export interface EndpointSecuritySave extends Required<Pick<StoredEndpointSecurity, 'version'>> {
  readonly summary: EndpointSecuritySummary;
  readonly secrets: EndpointSecrets;
}

/** How a save ended: written, the account is not the organization's, or another save came first. */
export type SaveOutcome = 'saved' | 'not-found' | 'conflict';

/**
 * Each endpoint's material in its own item beside its account, and the summary on the endpoint's item
 * (the account item for the default endpoint).
 */
export interface EndpointSecretStore {
  /**
   * The organization's material of the endpoint; undefined when it has none (an item another
   * organization left behind is never read as this one's).
   */
  getSecrets(
    endpoint: EndpointAddress,
    options?: { readonly consistent?: boolean },
  ): Promise<EndpointSecrets | undefined>;
  /** The material, summary and version as committed (a strongly consistent read), to change them. */
  readForUpdate(endpoint: EndpointAddress): Promise<StoredEndpointSecurity>;
  /**
   * Writes the material and the summary on the organization's endpoint in one transaction, only if the
   * material is still at `save.version` (no lost update) and the endpoint is the organization's (its
   * account not deleted): the endpoint's summary never names material its item lacks.
   */
  saveSecurity(endpoint: EndpointAddress, save: EndpointSecuritySave): Promise<SaveOutcome>;
  /**
   * Deletes the organization's material of the account's default endpoint, so a later owner of the IBAN
   * starts without any (extra endpoints' material goes with them, `EndpointStore`).
   */
  removeSecrets: RemoveEndpointSecrets;
}

/** Removes an endpoint's material (its account was deleted); nothing when it has none or is another's. */
export type RemoveEndpointSecrets = (iban: string, orgId: string) => Promise<void>;

/** Encrypts a webhook body to the receiver's key. */
export interface PayloadEncrypter {
  /** A JWE compact serialization (`RSA-OAEP-256`, `A256GCM`, `kid` = the key's thumbprint). */
  encrypt(key: RsaPublicJwk, keyId: string, plaintext: string): Promise<string>;
}

/**
 * Checks that the sender's TLS, in this runtime, can use an endpoint's material: builds what a request
 * would build from it (client certificate chain and key, or receiver CA), so whatever the runtime's
 * OpenSSL refuses is refused when the account is saved, not at every attempt.
 *
 * @throws ValidationError naming `tls_client_certificate` or `tls_ca_certificate` and what TLS refused
 */
export type TlsMaterialCheck = (tls: ClientTls) => void;
