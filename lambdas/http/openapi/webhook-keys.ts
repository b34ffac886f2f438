/**
 * The organization's Ed25519 keys (`v1a` signatures) and its signature setting in the OpenAPI document:
 * the schemas, an organization key's routes and the operator's twins (which `admin.ts` lists).
 */
import { SIGNATURE_SCHEME_LIST, SIGNATURE_SCHEMES_BODY } from '#http/organizations/signature-schemes-request';
import { ROTATION_BODY } from '#http/organizations/webhook-token-request';
import { array, closed, optional, ref, text, timestamp } from '#http/schema';
import { SIGNING_KEY_ID } from './attempts';
import type { ParameterObject, Reference } from './objects';
import { badRequest, ok, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** An Ed25519 public key of the organization. */
export const WEBHOOK_KEY = closed({
  key_id: SIGNING_KEY_ID,
  public_key: text('`whpk_` + base64 of the raw 32-byte Ed25519 public key.', {
    pattern: '^whpk_[A-Za-z0-9+/]{43}=$',
  }),
  created_at: timestamp('When it was made'),
  expires_at: optional(timestamp('A replaced key during its overlap: when it stops signing')),
});
/** The schemes the organization's webhooks carry. */
export const SIGNATURE_SCHEMES_VIEW = closed({ signature_schemes: SIGNATURE_SCHEME_LIST });

/** The keys that sign now. */
export const WEBHOOK_KEYS = array(ref('WebhookKey', WEBHOOK_KEY), {
  description: 'The keys that sign now, new first: one, or two during an overlap.',
});

/** The schemas of the keys and the setting, merged into `components.schemas`. */
export const WEBHOOK_KEY_SCHEMAS = {
  WebhookKey: WEBHOOK_KEY,
  WebhookKeys: WEBHOOK_KEYS,
  SignatureSchemes: SIGNATURE_SCHEMES_VIEW,
};

const ROTATE: SharedOperation = {
  summary: 'Replace the Ed25519 signing key',
  description:
    'Webhooks sent during the overlap carry two `v1a` signatures (new, then old). The private key is made ' +
    'and sealed inside Herald and is never shown. An organization created before signing keys existed ' +
    'gets its first one this way.',
  requestBody: ROTATION_BODY,
  responses: {
    '200': ok('The keys that sign now.', ref('WebhookKeys', WEBHOOK_KEYS)),
    '400': badRequest('`overlap_hours` is out of range.'),
  },
};

const SIGNATURES: SharedOperation = {
  summary: "Choose the schemes of the organization's webhooks",
  description:
    'Both by default. `["v1a"]` alone needs a signing key (422 otherwise); without `v1` webhooks carry no ' +
    '`X-Signature`.',
  requestBody: SIGNATURE_SCHEMES_BODY,
  responses: {
    '200': ok('The setting.', ref('SignatureSchemes', SIGNATURE_SCHEMES_VIEW)),
    '400': badRequest('`signature_schemes` is not a list of known schemes.'),
    '422': responseRef('Unprocessable', 'Only `v1a`, but the organization has no signing key.'),
  },
};

/** The operator's twins, by their `ADMIN_ROUTES` name, on the organization's path. */
export function adminKeyDocs(
  orgPath: readonly ParameterObject[] | readonly Reference[],
  unknownOrg: Reference,
) {
  const onOrg = (doc: typeof ROTATE) => ({
    ...doc,
    parameters: orgPath,
    responses: { ...doc.responses, '404': unknownOrg },
  });
  return { rotateOrganizationKeys: onOrg(ROTATE), setOrganizationSignatures: onOrg(SIGNATURES) };
}

/** An organization key's routes: the public keys (`read`), rotation and the setting (`manage`). */
export const WEBHOOK_KEY_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/webhook-keys', {
    operationId: 'listWebhookKeys',
    summary: "The organization's Ed25519 public keys",
    description: 'Verify `v1a` entries of `webhook-signature` with them; no secret is involved.',
    tags: ['webhooks'],
    responses: {
      '200': ok(
        'The keys (none before the first rotation of an older organization).',
        ref('WebhookKeys', WEBHOOK_KEYS),
      ),
    },
  }),
  operation('POST', '/webhook-keys/rotate', {
    operationId: 'rotateWebhookKeys',
    tags: ['webhooks'],
    ...ROTATE,
  }),
  operation('PUT', '/webhook-signatures', {
    operationId: 'setWebhookSignatures',
    tags: ['webhooks'],
    ...SIGNATURES,
  }),
];
