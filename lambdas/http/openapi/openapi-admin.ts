/**
 * The OpenAPI operations added for publishing and administration: `POST /events` and the `/admin/…`
 * routes (AWS IAM, SigV4), and an organization key's `manage` routes (webhook URL, webhook token).
 */
import { MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { ACCOUNT_URL, OVERLAP } from './openapi-admin-schemas';
import { ACCOUNT_DELETE } from './openapi-admin-upkeep';
import { body, json, ORG_PATH, operation } from './openapi-operation';
import {
  closed,
  type JsonSchema,
  type OperationObject,
  type PathItemObject,
  parameterRef,
  responseRef,
  schemaRef,
  text,
} from './openapi-schemas';

const optionalBody = (schema: JsonSchema) => ({ required: false, content: json(schema) });
const ok = (description: string, schema: JsonSchema) => ({ description, content: json(schema) });
const NO_CONTENT = { description: 'Done; no body.' };
const UNKNOWN_ORG = responseRef('NotFound', 'No such organization.');
const BAD = (why: string) => responseRef('BadRequest', why);

/** `PUT /accounts/{iban}` (org key, `manage`), merged with `GET /accounts/{iban}`. */
export const ACCOUNT_PUT: PathItemObject = operation('PUT', '/accounts/{iban}', {
  operationId: 'setWebhookUrl',
  summary: "Set the webhook URL of one of the organization's accounts",
  tags: ['accounts'],
  parameters: [parameterRef('Iban')],
  requestBody: body({
    type: 'object',
    additionalProperties: false,
    required: ['webhook_url'],
    properties: { webhook_url: ACCOUNT_URL },
  }),
  responses: {
    '200': ok('The account.', schemaRef('Account')),
    '400': BAD(
      'The IBAN or the URL is invalid (the URL policy refuses it, e.g. not https or a private address).',
    ),
    '404': responseRef('NotFound', 'No such account in the organization.'),
  },
});

/** `POST /events` (IAM), merged with `GET /events`. */
export const PUBLISH_EVENT: PathItemObject = operation('POST', '/events', {
  operationId: 'publishEvent',
  summary: 'Record an event (AWS IAM)',
  description:
    'The gateway publishes with an AWS identity allowed `execute-api:Invoke`, SigV4-signed. Publishing an id ' +
    'again with the same content answers 200 with the stored event; other content answers 409.',
  tags: ['publishing'],
  requestBody: body(schemaRef('PublishRequest')),
  responses: {
    '200': ok('The id was already published with this content: the stored event.', schemaRef('EventDetail')),
    '201': ok('Recorded; its webhook is on its way.', schemaRef('EventDetail')),
    '400': BAD('A field is missing, unknown or invalid.'),
    '409': responseRef('Conflict', 'The id was published with other content.'),
    '422': responseRef('Unprocessable', 'No account with this IBAN is registered.'),
  },
});

/** An organization key's token routes (`manage` scope). */
export const MANAGE_PATHS: Readonly<Record<string, PathItemObject>> = {
  '/webhook-token': operation('GET', '/webhook-token', {
    operationId: 'getWebhookToken',
    summary: "The organization's webhook token",
    description: 'And, during an overlap after a rotation, the previous one with its expiry.',
    tags: ['webhooks'],
    responses: { '200': ok('The token(s).', schemaRef('WebhookToken')) },
  }),
  '/webhook-token/rotate': operation('POST', '/webhook-token/rotate', {
    operationId: 'rotateWebhookToken',
    summary: 'Replace the webhook token',
    description:
      'Webhooks sent during the overlap carry two `v1,` signatures in `webhook-signature`: new and old.',
    tags: ['webhooks'],
    requestBody: optionalBody(OVERLAP),
    responses: {
      '200': ok('The new token and the previous one.', schemaRef('WebhookToken')),
      '400': BAD('`overlap_hours` is out of range.'),
    },
  }),
};

const admin = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  operationId: string,
  op: Omit<OperationObject, 'security' | 'operationId' | 'tags'>,
): PathItemObject => operation(method, path, { operationId, tags: ['admin'], ...op });

/** The operator's routes (AWS IAM). */
export const ADMIN_PATHS: Readonly<Record<string, PathItemObject>> = {
  '/admin/organizations': admin('POST', '/admin/organizations', 'createOrganization', {
    summary: 'Create an organization with its webhook token and a first API key',
    requestBody: body(closed({ name: text('1 to 200 characters.') })),
    responses: {
      '201': ok('Created.', schemaRef('CreatedOrganization')),
      '400': BAD('The name is missing or too long.'),
    },
  }),
  '/admin/organizations/{org}': admin('GET', '/admin/organizations/{org}', 'getOrganization', {
    summary: 'One organization',
    parameters: ORG_PATH,
    responses: { '200': ok('The organization.', schemaRef('Organization')), '404': UNKNOWN_ORG },
  }),
  '/admin/organizations/{org}/api-keys': {
    ...admin('POST', '/admin/organizations/{org}/api-keys', 'createApiKey', {
      summary: 'Issue an API key',
      description: `At most ${MAX_API_KEYS_PER_ORG} keys per organization. The secret is shown only in this answer.`,
      parameters: ORG_PATH,
      requestBody: body({
        type: 'object',
        additionalProperties: false,
        required: ['name', 'scope'],
        properties: {
          name: text('1 to 100 characters.'),
          scope: schemaRef('KeyScope'),
          expires_at: { type: 'integer', description: 'Epoch seconds; the key is refused from then on.' },
        },
      }),
      responses: {
        '201': ok('Issued.', schemaRef('ApiKey')),
        '400': BAD('A field is missing or invalid.'),
        '404': UNKNOWN_ORG,
        '409': responseRef('Conflict', 'The organization has the most keys allowed.'),
      },
    }),
    ...admin('GET', '/admin/organizations/{org}/api-keys', 'listApiKeys', {
      summary: "The organization's API keys, oldest first, without secrets",
      parameters: ORG_PATH,
      responses: {
        '200': ok('The keys.', { type: 'array', items: schemaRef('ApiKey') }),
        '404': UNKNOWN_ORG,
      },
    }),
  },
  '/admin/organizations/{org}/api-keys/{key_id}': admin(
    'DELETE',
    '/admin/organizations/{org}/api-keys/{key_id}',
    'revokeApiKey',
    {
      summary: 'Revoke an API key',
      description: 'The key answers 401 once the authorizer cache (60 s) has let go of it.',
      parameters: [...ORG_PATH, parameterRef('KeyId')],
      responses: { '204': NO_CONTENT, '404': responseRef('NotFound', 'No such key in the organization.') },
    },
  ),
  '/admin/organizations/{org}/webhook-token/rotate': admin(
    'POST',
    '/admin/organizations/{org}/webhook-token/rotate',
    'rotateOrganizationToken',
    {
      summary: 'Replace the webhook token',
      parameters: ORG_PATH,
      requestBody: optionalBody(OVERLAP),
      responses: {
        '200': ok('The new token and the previous one.', schemaRef('WebhookToken')),
        '400': BAD('`overlap_hours` is out of range.'),
        '404': UNKNOWN_ORG,
      },
    },
  ),
  '/admin/organizations/{org}/accounts': admin(
    'GET',
    '/admin/organizations/{org}/accounts',
    'listOrganizationAccounts',
    {
      summary: "The organization's accounts",
      parameters: ORG_PATH,
      responses: { '200': ok('The accounts.', { type: 'array', items: schemaRef('Account') }) },
    },
  ),
  '/admin/organizations/{org}/events/requeue': admin(
    'POST',
    '/admin/organizations/{org}/events/requeue',
    'requeueEvents',
    {
      summary: 'Queue pending events again',
      description:
        'For events the table-stream forwarder gave up on; a duplicate message is harmless. Each request ' +
        'examines up to 500 of the older events, newest first: repeat it with `cursor` while `more` is true.',
      parameters: ORG_PATH,
      requestBody: optionalBody({
        type: 'object',
        additionalProperties: false,
        properties: {
          older_than_minutes: { type: 'integer', minimum: 0, default: 15 },
          cursor: { type: 'string', description: 'Where the previous request stopped: its `cursor`.' },
        },
      }),
      responses: {
        '202': ok('Queued.', schemaRef('Requeue')),
        '400': BAD('`older_than_minutes` or `cursor` is invalid.'),
      },
    },
  ),
  '/admin/organizations/{org}/events/{id}/redeliver': admin(
    'POST',
    '/admin/organizations/{org}/events/{id}/redeliver',
    'redeliverOrganizationEvent',
    {
      summary: 'Redeliver a failed or skipped event of the organization',
      parameters: [...ORG_PATH, parameterRef('EventId')],
      responses: {
        '202': ok('Queued.', schemaRef('Redelivery')),
        '400': BAD('The id is not a lower-case UUID.'),
        '404': responseRef('NotFound', 'No such event in the organization.'),
        '409': responseRef('Conflict', 'The event is pending or delivered.'),
      },
    },
  ),
  '/admin/organizations/{org}/webhooks/reset': admin(
    'POST',
    '/admin/organizations/{org}/webhooks/reset',
    'resetOrganizationWebhooks',
    {
      summary: 'Redeliver the next chunk of failed or skipped events of the organization',
      description: 'As `POST /management/webhooks/reset`: send it again while `more` is true.',
      parameters: ORG_PATH,
      responses: { '202': ok('Queued.', schemaRef('Reset')) },
    },
  ),
  '/admin/accounts/{iban}': {
    ...admin('PUT', '/admin/accounts/{iban}', 'putAccount', {
      summary: 'Create or update an account',
      parameters: [parameterRef('Iban')],
      requestBody: body({
        type: 'object',
        additionalProperties: false,
        required: ['org'],
        properties: { org: text('The organization that owns the account.'), webhook_url: ACCOUNT_URL },
      }),
      responses: {
        '200': ok('The account.', schemaRef('Account')),
        '400': BAD('The IBAN, organization or URL is invalid.'),
        '404': UNKNOWN_ORG,
        '409': responseRef('Conflict', 'The IBAN belongs to another organization.'),
      },
    }),
    ...ACCOUNT_DELETE,
  },
};
