/**
 * The endpoint-security fields of `PUT /accounts/{iban}` and the operator's twin, beside `webhook_url`:
 * declared here, read with the rest of the account's body, turned into the change the use-case takes.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  MAX_CERTIFICATE_PEM_LENGTH,
  MAX_PRIVATE_KEY_PEM_LENGTH,
  MAX_PUBLIC_KEY_LENGTH,
} from '#config/limits';
import type { EndpointSecurityChange } from '#domain/endpoint-security/endpoint-security';
import { MAX_RSA_BITS, MIN_RSA_BITS, RSA_PUBLIC_EXPONENT } from '#domain/endpoint-security/payload-key';
import {
  anyObject,
  NULL,
  nullable,
  type ObjectOf,
  oneOf,
  optional,
  string,
  text,
  withReason,
} from '#http/schema';

/** A PEM field: a string of at most `max` characters, or null to remove it. */
const pem = (description: string, max: number, more: { writeOnly?: true } = {}) =>
  optional(
    withReason(
      nullable(text(description, { maxLength: max, ...more })),
      `must be a PEM string of at most ${max} characters, or null to remove it`,
    ),
  );

/** The endpoint-security fields of an account write: absent keeps what is stored, null removes it. */
export const ENDPOINT_SECURITY_FIELDS = {
  payload_encryption_key: optional(
    withReason(
      oneOf([string({ maxLength: MAX_PUBLIC_KEY_LENGTH }), anyObject(), NULL], {
        description:
          `The receiver's RSA public key (${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits, public exponent ${RSA_PUBLIC_EXPONENT}) as PEM or a JWK: webhook bodies are ` +
          'then a JWE compact serialization (`RSA-OAEP-256`, `A256GCM`) sent as `application/jose` and signed ' +
          'over those bytes; the API keeps showing the plain event. Absent: unchanged; null: plain JSON again. ' +
          `At most ${MAX_PUBLIC_KEY_LENGTH} characters (the PEM text, or the JWK as JSON).`,
      }),
      `must be a PEM string of at most ${MAX_PUBLIC_KEY_LENGTH} characters, a JWK object, or null to stop encrypting`,
    ),
  ),
  tls_client_certificate: pem(
    'PEM chain, leaf first, presented on every attempt (mutual TLS); with `tls_client_key`. Expired, ' +
      `unparsable, longer than ${MAX_CERTIFICATE_PEM_LENGTH} characters or not matching the key: 400. ` +
      'Null (with the key): none.',
    MAX_CERTIFICATE_PEM_LENGTH,
  ),
  tls_client_key: pem(
    `The leaf's unencrypted PEM private key (at most ${MAX_PRIVATE_KEY_PEM_LENGTH} characters); stored encrypted, never shown.`,
    MAX_PRIVATE_KEY_PEM_LENGTH,
    { writeOnly: true },
  ),
  tls_ca_certificate: pem(
    "PEM of the CA(s) that issued the receiver's certificate (a private CA), at most " +
      `${MAX_CERTIFICATE_PEM_LENGTH} characters; null: the public roots.`,
    MAX_CERTIFICATE_PEM_LENGTH,
  ),
};

/** The endpoint-security fields as a body carries them. */
type EndpointSecurityFields = ObjectOf<typeof ENDPOINT_SECURITY_FIELDS>;

/**
 * The change an account write asks for (a field absent keeps what is stored, `null` removes it), from a
 * body the account's parser (`account-request.ts`) has already read by its schema, which has these
 * fields; their content is checked by the use-case.
 */
export function parseEndpointSecurity(event: APIGatewayProxyEvent): EndpointSecurityChange {
  const body = JSON.parse(event.body ?? '{}') as EndpointSecurityFields;
  const change: { -readonly [K in keyof EndpointSecurityChange]: EndpointSecurityChange[K] } = {};
  if (body.payload_encryption_key !== undefined) change.payloadEncryptionKey = body.payload_encryption_key;
  if (body.tls_client_certificate !== undefined) change.tlsClientCertificate = body.tls_client_certificate;
  if (body.tls_client_key !== undefined) change.tlsClientKey = body.tls_client_key;
  if (body.tls_ca_certificate !== undefined) change.tlsCaCertificate = body.tls_ca_certificate;
  return change;
}
