/**
 * An account's webhook endpoints in the OpenAPI document: the endpoint (its subscription, order, health
 * and security summary), the organization key's routes and the operator's twins, and the path parameter.
 */
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import { DELIVERY_ORDER } from '#http/accounts/account-request';
import { ENDPOINT_CREATE_BODY, ENDPOINT_UPDATE_BODY } from '#http/accounts/endpoint-request';
import { anyObject, array, closed, flag, nullable, ref, string, text, timestamp, uri } from '#http/schema';
import { ENDPOINT_BUSY, ENDPOINT_HEALTH, NO_ACCOUNT } from './accounts';
import { ENDPOINT_SECURITY_VIEW } from './endpoint-security';
import type { ParameterObject } from './objects';
import { badRequest, notFound, ok, parameterRef, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** An endpoint of an account. */
export const ENDPOINT = closed({
  endpoint_id: nullable(
    text(
      "The endpoint's id (random, not derived from the IBAN). The default endpoint's is the account's " +
        '`endpoint_id` (null for an account created before endpoint ids until its next write).',
      { pattern: ENDPOINT_ID_PATTERN.source },
    ),
  ),
  default: flag(
    "The account's default endpoint: its `webhook_url` (also set by `PUT /accounts/{iban}`), which stays " +
      'with the account; the others are extra endpoints added beside it.',
  ),
  url: nullable(
    uri(
      'Where its webhooks go; null only for a default endpoint without a URL (nothing is routed to it). ' +
        "Shown whole to the organization's `manage` keys and to operators, to a `read` key with the values of " +
        'its query replaced by `***`.',
    ),
  ),
  event_types: nullable(array(string(), { description: 'The catalog types it hears of; null: every type.' })),
  filter: nullable(anyObject('Its payload filter (docs/subscriptions.md); null: every payload.')),
  description: nullable(string({ description: 'What it is for.' })),
  delivery_order: DELIVERY_ORDER,
  enabled: flag(
    'False while disabled (by its organization, an operator, a `410 Gone` or failing for days): nothing is ' +
      'routed or sent to it, and its pending deliveries settle `skipped`.',
  ),
  webhook_health: ref('EndpointHealth', ENDPOINT_HEALTH),
  ...ENDPOINT_SECURITY_VIEW,
  created_at: timestamp('When it was added (the default one: when the account was created)'),
  updated_at: timestamp('When its settings last changed'),
  _links: closed({ self: uri('This endpoint.'), account: uri('Its account.') }),
});

/** The schemas of endpoints, merged into `components.schemas`. */
export const ENDPOINT_SCHEMAS = { Endpoint: ENDPOINT };

/** The endpoint id in the path, merged into `components.parameters`. */
export const ENDPOINT_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  EndpointId: {
    name: 'endpoint_id',
    in: 'path',
    required: true,
    description: "An endpoint's id (`ep_…`), the default endpoint's included.",
    schema: { type: 'string', pattern: ENDPOINT_ID_PATTERN.source },
  },
};

const ENDPOINT_PATH = [parameterRef('Iban'), parameterRef('EndpointId')];
const NO_ENDPOINT = notFound(
  'No such account (in the organization, for an organization key), or no such endpoint of it.',
);

/** What each route does, by the operation names of the organization key's routes and the operator's. */
const LIST: SharedOperation = {
  summary: "An account's webhook endpoints",
  description:
    "Its default endpoint (the account's `webhook_url`) first, then the extra ones, oldest first; at most " +
    `${MAX_ENDPOINTS_PER_ACCOUNT} in all.`,
  parameters: [parameterRef('Iban')],
  responses: {
    '200': ok('The endpoints.', {
      type: 'array',
      maxItems: MAX_ENDPOINTS_PER_ACCOUNT,
      items: ref('Endpoint', ENDPOINT),
    }),
    '400': badRequest('The IBAN is malformed or its check digits do not match.'),
    '404': NO_ACCOUNT,
  },
};

const ADD: SharedOperation = {
  summary: 'Add a webhook endpoint to an account',
  description:
    'An extra endpoint beside the default one, with its own subscription (`event_types`, `filter`), order, ' +
    'health and security. Each event stored after it is added (and not yet routed) goes to every enabled ' +
    'endpoint whose subscription matches; an event routed before does not. `url` is required; every field ' +
    'is checked, and the client key sealed, before anything is stored. At most ' +
    `${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account, the default one included.`,
  parameters: [parameterRef('Iban')],
  requestBody: ENDPOINT_CREATE_BODY,
  responses: {
    '201': ok('Added.', ref('Endpoint', ENDPOINT)),
    '400': badRequest(
      'A field is invalid: the URL (the URL policy refuses it), an event type the catalog lacks ' +
        '(`event_types/1`), a filter that breaks its rule (`filter/status/0`), the security material; ' +
        '`invalid_params` names each.',
    ),
    '404': NO_ACCOUNT,
    '409': responseRef('Conflict', `The account has ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints already.`),
  },
};

const ONE: SharedOperation = {
  summary: 'One webhook endpoint of an account',
  parameters: ENDPOINT_PATH,
  responses: {
    '200': ok('The endpoint.', ref('Endpoint', ENDPOINT)),
    '400': badRequest('The IBAN or the endpoint id is malformed.'),
    '404': NO_ENDPOINT,
  },
};

const UPDATE: SharedOperation = {
  summary: 'Change a webhook endpoint of an account',
  description:
    'Every field is optional and the write changes only those it names: absent keeps what is stored, `null` ' +
    "removes it. The default endpoint's change is the account's (`url` is its `webhook_url`; null removes it). " +
    'A new subscription applies to the events routed after it is saved, not to those routed before.',
  parameters: ENDPOINT_PATH,
  requestBody: ENDPOINT_UPDATE_BODY,
  responses: {
    '200': ok('The endpoint.', ref('Endpoint', ENDPOINT)),
    '400': badRequest('A field is invalid; `invalid_params` names each.'),
    '404': NO_ENDPOINT,
    '409': responseRef('Conflict', ENDPOINT_BUSY),
  },
};

const REMOVE: SharedOperation = {
  summary: 'Remove a webhook endpoint of an account',
  description:
    'An extra endpoint and its security material. Its deliveries still pending settle `skipped` without an ' +
    'attempt. The default endpoint stays with its account (409): remove its URL with `webhook_url: null`, or ' +
    'disable it.',
  parameters: ENDPOINT_PATH,
  responses: {
    '204': { description: 'Removed; no body.' },
    '400': badRequest('The IBAN or the endpoint id is malformed.'),
    '404': NO_ENDPOINT,
    '409': responseRef('Conflict', 'The default endpoint cannot be removed.'),
  },
};

/** The endpoint routes of an organization key. */
export const ENDPOINT_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/accounts/{iban}/endpoints', {
    ...LIST,
    operationId: 'listEndpoints',
    tags: ['accounts'],
  }),
  operation('POST', '/accounts/{iban}/endpoints', { ...ADD, operationId: 'addEndpoint', tags: ['accounts'] }),
  operation('GET', '/accounts/{iban}/endpoints/{endpoint_id}', {
    ...ONE,
    operationId: 'getEndpoint',
    tags: ['accounts'],
  }),
  operation('PUT', '/accounts/{iban}/endpoints/{endpoint_id}', {
    ...UPDATE,
    operationId: 'updateEndpoint',
    tags: ['accounts'],
  }),
  operation('DELETE', '/accounts/{iban}/endpoints/{endpoint_id}', {
    ...REMOVE,
    operationId: 'removeEndpoint',
    tags: ['accounts'],
  }),
];

/** The operator's endpoint routes, by their names in `ADMIN_ROUTES`. */
export const ENDPOINT_ADMIN_DOCS = {
  adminListEndpoints: LIST,
  adminAddEndpoint: ADD,
  adminGetEndpoint: ONE,
  adminUpdateEndpoint: UPDATE,
  adminRemoveEndpoint: REMOVE,
} as const satisfies Readonly<Record<string, SharedOperation>>;
