/**
 * The endpoint-security fields of accounts in the OpenAPI document: what the account views show (the
 * write-only fields of `PUT /accounts/{iban}` are declared with its body, `endpoint-security-request.ts`).
 */
import { MAX_CERTIFICATE_NAME_LENGTH } from '#config/limits';
import { MAX_RSA_BITS, MIN_RSA_BITS } from '#domain/endpoint-security/payload-key';
import { closed, int, nullable, text, timestamp } from '#http/schema';

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
export const ENDPOINT_SECURITY_VIEW = {
  payload_encryption: nullable(
    closed(
      {
        key_id: text("The key's RFC 7638 thumbprint (SHA-256, base64url), the JWE header's `kid`."),
        bits: int('Bits of its modulus.', MIN_RSA_BITS, { maximum: MAX_RSA_BITS }),
      },
      'Webhook bodies are JWE-encrypted to this key (`application/jose`); null: plain JSON.',
    ),
  ),
  tls_client_certificate: certificate(
    'The client certificate every attempt presents (mutual TLS); its key is never shown. Null: none.',
  ),
  tls_ca_certificate: certificate("The CA trusted for the receiver's certificate; null: the public roots."),
};
