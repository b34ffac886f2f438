/**
 * The body of `PUT /webhook-signatures` (and the operator's twin): `{"signature_schemes": ["v1", "v1a"]}`,
 * the schemes the organization's webhooks carry.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '#domain/model';
import { jsonBody } from '#http/request';

/**
 * A non-empty list of distinct schemes out of `v1` (HMAC) and `v1a` (Ed25519).
 *
 * @throws ValidationError naming `signature_schemes`
 */
export function parseSignatureSchemes(event: APIGatewayProxyEvent): readonly SignatureScheme[] {
  const value = jsonBody(event, ['signature_schemes']).signature_schemes;
  const allowed = SIGNATURE_SCHEMES as readonly unknown[];
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((scheme) => allowed.includes(scheme)) ||
    new Set(value).size !== value.length
  ) {
    throw new ValidationError(
      'signature_schemes',
      `must be a non-empty list of distinct schemes out of ${SIGNATURE_SCHEMES.join(', ')}`,
    );
  }
  return SIGNATURE_SCHEMES.filter((scheme) => value.includes(scheme));
}
