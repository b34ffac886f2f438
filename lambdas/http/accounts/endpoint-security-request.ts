/**
 * The endpoint-security fields of `PUT /accounts/{iban}` and the operator's twin, beside `webhook_url`:
 * read here so the account parsers only need to allow their names.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { EndpointSecurityChange } from '#domain/endpoint-security/endpoint-security';
import { ValidationError } from '#domain/errors';

/** The body fields of endpoint security. */
export const ENDPOINT_SECURITY_FIELDS = [
  'payload_encryption_key',
  'tls_client_certificate',
  'tls_client_key',
  'tls_ca_certificate',
] as const;

/** The PEM fields and the change's name for each. */
const PEM_FIELDS = {
  tls_client_certificate: 'tlsClientCertificate',
  tls_client_key: 'tlsClientKey',
  tls_ca_certificate: 'tlsCaCertificate',
} as const;

/**
 * The change the body asks for: a field absent keeps what is stored, `null` removes it.
 *
 * @throws ValidationError naming a field of the wrong type (its content is checked by the use-case)
 */
export function parseEndpointSecurity(event: APIGatewayProxyEvent): EndpointSecurityChange {
  // The account parser has already checked that the body is a JSON object with known fields.
  const body = JSON.parse(event.body ?? '{}') as Record<string, unknown>;
  const change: { -readonly [K in keyof EndpointSecurityChange]: EndpointSecurityChange[K] } = {};
  const key = body.payload_encryption_key;
  if (key !== undefined) {
    if (key !== null && typeof key !== 'string' && (typeof key !== 'object' || Array.isArray(key))) {
      throw new ValidationError(
        'payload_encryption_key',
        'must be a PEM string, a JWK object, or null to stop encrypting',
      );
    }
    change.payloadEncryptionKey = key as EndpointSecurityChange['payloadEncryptionKey'];
  }
  for (const [field, name] of Object.entries(PEM_FIELDS) as [
    keyof typeof PEM_FIELDS,
    (typeof PEM_FIELDS)[keyof typeof PEM_FIELDS],
  ][]) {
    const value = body[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string')
      throw new ValidationError(field, 'must be a PEM string, or null to remove it');
    change[name] = value;
  }
  return change;
}
