/**
 * The body of `PUT /webhook-signatures` (and the operator's twin): `{"signature_schemes": ["v1", "v1a"]}`,
 * the schemes the organization's webhooks carry.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '#domain/model';
import { readBody } from '#http/read-request';
import { array, body, closed, oneOfValues, withReason } from '#http/schema';

/** The schemes an organization's webhooks carry, as set and as shown. */
export const SIGNATURE_SCHEME_LIST = withReason(
  array(oneOfValues(SIGNATURE_SCHEMES), {
    minItems: 1,
    maxItems: SIGNATURE_SCHEMES.length,
    uniqueItems: true,
    description:
      '`v1`: HMAC-SHA256 with the webhook token (also `X-Signature`). `v1a`: Ed25519 with the signing key.',
  }),
  `must be a non-empty list of distinct schemes out of ${SIGNATURE_SCHEMES.join(', ')}`,
);

/** The body of a signature setting. */
export const SIGNATURE_SCHEMES_BODY = body(closed({ signature_schemes: SIGNATURE_SCHEME_LIST }));

/**
 * A non-empty list of distinct schemes out of `v1` (HMAC) and `v1a` (Ed25519), in canonical order.
 *
 * @throws ValidationError naming `signature_schemes`
 */
export function parseSignatureSchemes(event: APIGatewayProxyEvent): readonly SignatureScheme[] {
  const schemes = readBody(event, SIGNATURE_SCHEMES_BODY).signature_schemes;
  return SIGNATURE_SCHEMES.filter((scheme) => schemes.includes(scheme));
}
