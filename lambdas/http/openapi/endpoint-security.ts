/**
 * The endpoint-security fields of accounts in the OpenAPI document: what the account views show, and
 * the write-only fields of `PUT /accounts/{iban}` and its operator twin.
 */
import {
  MAX_CERTIFICATE_NAME_LENGTH,
  MAX_CERTIFICATE_PEM_LENGTH,
  MAX_PRIVATE_KEY_PEM_LENGTH,
  MAX_PUBLIC_KEY_LENGTH,
} from '#config/limits';
import { MAX_RSA_BITS, MIN_RSA_BITS, RSA_PUBLIC_EXPONENT } from '#domain/endpoint-security/payload-key';
import type { JsonSchema } from '#http/schema';
import { closed, nullable, text, timestamp } from '#http/schema';

const cut = (what: string) =>
  `${what}; a longer one is cut to ${MAX_CERTIFICATE_NAME_LENGTH} characters ending with \`…\`.`;

const certificate = (what: string) =>
  nullable(
    closed(
      {
        subject: text(cut('Subject DN'), { maxLength: MAX_CERTIFICATE_NAME_LENGTH }),
        issuer: text(cut('Issuer DN'), { maxLength: MAX_CERTIFICATE_NAME_LENGTH }),
        expires_at: timestamp('When it expires'),
      },
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
      'over those bytes; the API keeps showing the plain event. Absent: unchanged; null: plain JSON again. ' +
      `At most ${MAX_PUBLIC_KEY_LENGTH} characters (the PEM text, or the JWK as JSON).`,
    oneOf: [{ type: 'string', maxLength: MAX_PUBLIC_KEY_LENGTH }, { type: 'object' }, { type: 'null' }],
  },
  tls_client_certificate: {
    type: ['string', 'null'],
    maxLength: MAX_CERTIFICATE_PEM_LENGTH,
    description:
      'PEM chain, leaf first, presented on every attempt (mutual TLS); with `tls_client_key`. Expired, ' +
      `unparsable, longer than ${MAX_CERTIFICATE_PEM_LENGTH} characters or not matching the key: 400. ` +
      'Null (with the key): none.',
  },
  tls_client_key: {
    type: ['string', 'null'],
    maxLength: MAX_PRIVATE_KEY_PEM_LENGTH,
    writeOnly: true,
    description: `The leaf's unencrypted PEM private key (at most ${MAX_PRIVATE_KEY_PEM_LENGTH} characters); stored encrypted, never shown.`,
  },
  tls_ca_certificate: {
    type: ['string', 'null'],
    maxLength: MAX_CERTIFICATE_PEM_LENGTH,
    description:
      "PEM of the CA(s) that issued the receiver's certificate (a private CA), at most " +
      `${MAX_CERTIFICATE_PEM_LENGTH} characters; null: the public roots.`,
  },
};
