/**
 * The endpoint-security fields of `PUT /accounts/{iban}` and the operator's twin, beside `webhook_url`:
 * read here so the account parsers only need to allow their names.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { EndpointSecurityChange } from '#domain/endpoint-security/endpoint-security';
import { ValidationError } from '#domain/errors';

/** The body fields of endpoint security. */
export const ENDPOINT_SECURITY_FIELDS = ['payload_encryption_key'] as const;

/**
 * The change the body asks for: a field absent keeps what is stored, `null` removes it.
 *
 * @throws ValidationError naming a field of the wrong type (its content is checked by the use-case)
 */
export function parseEndpointSecurity(event: APIGatewayProxyEvent): EndpointSecurityChange {
  // The account parser has already checked that the body is a JSON object with known fields.
  const body = JSON.parse(event.body ?? '{}') as Record<string, unknown>;
  const key = body.payload_encryption_key;
  if (
    key !== undefined &&
    key !== null &&
    typeof key !== 'string' &&
    (typeof key !== 'object' || Array.isArray(key))
  ) {
    throw new ValidationError(
      'payload_encryption_key',
      'must be a PEM string, a JWK object, or null to stop encrypting',
    );
  }
  return key === undefined
    ? {}
    : { payloadEncryptionKey: key as EndpointSecurityChange['payloadEncryptionKey'] };
}
