/**
 * The endpoint-security fields of accounts in the OpenAPI document: what the account views show, and
 * the write-only fields of `PUT /accounts/{iban}` and its operator twin.
 */
import { MAX_RSA_BITS, MIN_RSA_BITS, RSA_PUBLIC_EXPONENT } from '#domain/endpoint-security/payload-key';
import type { JsonSchema } from './schemas';
import { closed, nullable, text, timestamp } from './schemas';

const certificate = (what: string) =>
  nullable(
    closed(
      { subject: text('Subject DN.'), issuer: text('Issuer DN.'), expires_at: timestamp('When it expires') },
      what,
    ),
  );

/** The properties an `Account` view adds. */
export const ENDPOINT_SECURITY_VIEW: Readonly<Record<string, JsonSchema>> = {
  payload_encryption: nullable(
    closed(
      {
        key_id: text("The key's RFC 7638 thumbprint (SHA-256, base64url), the JWE header's `kid`."),
        bits: { type: 'integer', minimum: MIN_RSA_BITS, maximum: MAX_RSA_BITS },
      },
      'Webhook bodies are JWE-encrypted to this key (`application/jose`); null: plain JSON.',
    ),
  ),
  tls_client_certificate: certificate(
    'The client certificate every attempt presents (mutual TLS); its key is never shown. Null: none.',
  ),
  tls_ca_certificate: certificate("The CA trusted for the receiver's certificate; null: the public roots."),
};

/** The properties a `PUT` of an account accepts besides `webhook_url`: absent keeps, null removes. */
export const ENDPOINT_SECURITY_REQUEST: Readonly<Record<string, JsonSchema>> = {
  payload_encryption_key: {
    description:
      `The receiver's RSA public key (${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits, public exponent ${RSA_PUBLIC_EXPONENT}) as PEM or a JWK: webhook bodies are ` +
      'then a JWE compact serialization (`RSA-OAEP-256`, `A256GCM`) sent as `application/jose` and signed ' +
      'over those bytes; the API keeps showing the plain event. Absent: unchanged; null: plain JSON again.',
    oneOf: [{ type: 'string' }, { type: 'object' }, { type: 'null' }],
  },
  tls_client_certificate: {
    type: ['string', 'null'],
    description:
      'PEM chain, leaf first, presented on every attempt (mutual TLS); with `tls_client_key`. Expired, ' +
      'unparsable or not matching the key: 400. Null (with the key): none.',
  },
  tls_client_key: {
    type: ['string', 'null'],
    writeOnly: true,
    description: "The leaf's unencrypted PEM private key; stored encrypted, never shown.",
  },
  tls_ca_certificate: {
    type: ['string', 'null'],
    description:
      "PEM of the CA(s) that issued the receiver's certificate (a private CA); null: the public roots.",
  },
};
