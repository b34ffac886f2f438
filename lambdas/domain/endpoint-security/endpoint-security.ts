/**
 * What an account's webhook endpoint may demand beyond HTTPS: payloads encrypted to the receiver's RSA
 * key (JWE), a client certificate (mutual TLS) and a private CA for the receiver's certificate. The account item carries only a
 * small, non-secret summary (read with every delivery batch, shown in the views); the material lives in
 * its own item, read only when the summary says there is some.
 */

/** The non-secret summary on the account item: what its views show, and whether to read the material. */
export interface EndpointSecuritySummary {
  /** The receiver's RSA key that webhook bodies are encrypted to (JWE `RSA-OAEP-256` / `A256GCM`). */
  readonly payloadEncryption?: PayloadKeySummary | undefined;
  /** The client certificate every attempt presents (mutual TLS). */
  readonly tlsClient?: CertificateSummary | undefined;
  /** The CA trusted for the receiver instead of the public roots. */
  readonly tlsCa?: CertificateSummary | undefined;
}

/** What the views show of a certificate. */
export interface CertificateSummary {
  readonly subject: string;
  readonly issuer: string;
  /** ISO 8601 UTC. */
  readonly expiresAt: string;
}

/** What identifies a payload encryption key without showing it. */
export interface PayloadKeySummary {
  /** The RFC 7638 JWK thumbprint (SHA-256, base64url), also the JWE header's `kid`. */
  readonly keyId: string;
  /** The modulus length. */
  readonly bits: number;
}

/** The material of an endpoint's item. */
export interface EndpointSecrets {
  /** The receiver's public key as a JWK (`kty`, `n`, `e`). */
  readonly payloadEncryptionKey?: RsaPublicJwk | undefined;
  /** The client certificate chain (PEM, leaf first) and its private key, sealed. */
  readonly tlsClient?: { readonly certificate: string; readonly sealedKey: string } | undefined;
  /** PEM of the CA(s) trusted for the receiver. */
  readonly tlsCa?: string | undefined;
}

/** An RSA public key as a JSON Web Key, its public members only. */
export interface RsaPublicJwk {
  readonly kty: 'RSA';
  readonly n: string;
  readonly e: string;
}

/**
 * A change of an endpoint's security in a `PUT /accounts/{iban}`: a field absent keeps what is stored,
 * `null` removes it, a value replaces it. The key fields are write-only, so a client that cannot read
 * them back must not lose them by leaving them out.
 */
export interface EndpointSecurityChange {
  /** PEM (`-----BEGIN PUBLIC KEY-----`) or a JWK object; null removes encryption. */
  readonly payloadEncryptionKey?: string | Record<string, unknown> | null;
  /** PEM chain, leaf first; given (or null) together with the key. */
  readonly tlsClientCertificate?: string | null;
  /** PEM private key of the leaf; write-only. */
  readonly tlsClientKey?: string | null;
  /** PEM of the CA(s) that issued the receiver's certificate; null: the public roots. */
  readonly tlsCaCertificate?: string | null;
}

/** Whether a change (or a checked one) changes anything. */
export function isEmptyChange(change: object): boolean {
  return Object.values(change).every((value) => value === undefined);
}

/** The TLS material of one request (PEM); never logged or stored with the attempt. */
export interface ClientTls {
  /** The client certificate chain, leaf first. */
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
  /** CA(s) trusted for the receiver instead of the public roots. */
  readonly ca?: string | undefined;
}
