/**
 * Accounts in the OpenAPI document: listing and reading them with their endpoint's health, setting a
 * webhook URL (`manage` keys) and enabling an endpoint again; their schemas and the IBAN parameter.
 */

import { MAX_LIST_DEPTH } from '#config/limits';
import { ENDPOINT_STATES } from '#domain/delivery/endpoint-health';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import type { OperationObject, ParameterObject, Reference } from './objects';
import { body, json, ok, parameterRef, responseRef } from './objects';
import { operation, type RouteDoc } from './operation';
import type { JsonSchema } from './schemas';
import { closed, EVENT_ID, IBAN, int, nullable, schemaRef, text, timestamp, uri } from './schemas';

/** A settable webhook URL. */
export const ACCOUNT_URL = {
  type: ['string', 'null'],
  format: 'uri',
  description: 'Where webhooks go; absent or null: events are recorded as `skipped`.',
};

/** The schemas of accounts, merged into `components.schemas`. */
export const ACCOUNT_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Account: closed({
    iban: IBAN,
    webhook_url: {
      type: ['string', 'null'],
      format: 'uri',
      description: 'Where webhooks go; null: events are recorded as `skipped` and not sent.',
    },
    endpoint_id: nullable(
      text(
        "The webhook endpoint's id: random, not derived from the IBAN, so metrics and alarms " +
          '(`EndpointDisabled`, `CircuitOpened`, `EndpointRecovered`, dimension `endpoint`) name the ' +
          'endpoint with it instead. Null for an account created before endpoint ids until its next write.',
        { pattern: ENDPOINT_ID_PATTERN.source },
      ),
    ),
    webhook_health: schemaRef('EndpointHealth'),
    _links: closed({ self: uri('This account.'), events: uri('The events of this account.') }),
  }),
  EndpointHealth: closed(
    {
      state: text(
        '`healthy`: webhooks go out freely. `degraded`: recent attempts failed or were slow; at most a few ' +
          'deliveries at a time, and while the circuit is open none but one probe. `disabled`: nothing is ' +
          'sent and new events settle `skipped` until the endpoint is enabled again.',
        { enum: ENDPOINT_STATES },
      ),
      since: nullable(timestamp('When the endpoint entered this state')),
      reason: { type: ['string', 'null'], description: 'Why it is in this state.' },
      consecutive_failures: int('Failed attempts since the last success.', 0),
      failing_since: nullable(timestamp('First failure of the current run of failures')),
      last_success_at: nullable(
        timestamp(
          'Last success that was written: a recovery, or a success while degraded (a healthy endpoint’s successes write nothing)',
        ),
      ),
      last_failure_at: nullable(timestamp('Last failed attempt')),
      recent_latency_ms: {
        type: ['integer', 'null'],
        minimum: 0,
        description: 'Duration of the last attempt written, in ms.',
      },
      circuit_open_until: nullable(timestamp('Until when no attempt but a probe goes out')),
    },
    "Health of the account's webhook endpoint.",
  ),
  EndpointEnabled: closed({
    iban: IBAN,
    webhook_health: { const: 'healthy' },
    queued: {
      type: 'array',
      items: EVENT_ID,
      description: 'Events that start a new cycle (with `recover_since`).',
    },
  }),
};

/** The IBAN in the path and the listing's `after`, merged into `components.parameters`. */
export const ACCOUNT_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  Iban: {
    name: 'iban',
    in: 'path',
    required: true,
    description: 'IBAN, any case; blanks are removed.',
    schema: { type: 'string' },
  },
  After: {
    name: 'after',
    in: 'query',
    description:
      'Only accounts whose IBAN sorts after this one (any case, blanks allowed): where the `next` link ' +
      `goes on once \`page × per_page\` would pass ${MAX_LIST_DEPTH}.`,
    schema: { type: 'string' },
  },
};

/**
 * A page of accounts, for an organization key's listing and the operator's
 * (`listOrganizationAccounts`): the paging parameters and answers both share.
 */
export const ACCOUNT_LISTING: Pick<OperationObject, 'description' | 'responses'> & {
  readonly parameters: readonly Reference[];
} = {
  description:
    'By IBAN ascending, paged like `GET /events`: `page` from 1, `per_page` 1 to 100 (default 10), and ' +
    `each request reads at most \`page × per_page\` (${MAX_LIST_DEPTH} at most) index entries and its page ` +
    'of accounts, however many the organization has. The `Link` header has `first`, `prev` after page 1 and ' +
    '`next` while more follow; past the depth bound `next` is page 1 `after` the last IBAN, so following ' +
    '`next` reaches every account.',
  parameters: ['Page', 'PerPage', 'After'].map(parameterRef),
  responses: {
    '200': {
      description: 'One page of accounts; an empty array past the last page.',
      headers: { Link: { $ref: '#/components/headers/Link' } },
      content: json({ type: 'array', maxItems: 100, items: schemaRef('Account') }),
    },
    '400': responseRef(
      'BadRequest',
      'A query parameter is unknown, repeated or invalid (`after` is not an IBAN), or the page is deeper than the bound.',
    ),
  },
};

/** Enabling an endpoint again, for an organization key and (the `adminEnableEndpoint` route) operators. */
export const ENABLE: Omit<OperationObject, 'operationId' | 'security' | 'tags'> = {
  summary: "Enable the account's webhook endpoint again",
  description:
    'Makes a `disabled` or `degraded` endpoint `healthy` (failure count, open circuit and reason cleared). ' +
    'With `recover_since`, the `failed` and `skipped` events of the account triggered since then start a new cycle: up to 500 per request (read from the status indexes, so the cost is bounded); enable again with the same time for more.',
  parameters: [parameterRef('Iban')],
  requestBody: {
    required: false,
    content: json({
      type: 'object',
      additionalProperties: false,
      properties: {
        recover_since: { ...schemaRef('Timestamp'), description: 'Redeliver events since then, UTC.' },
      },
    }),
  },
  responses: {
    '200': ok('Enabled.', schemaRef('EndpointEnabled')),
    '400': responseRef('BadRequest', 'The IBAN, the body or `recover_since` is malformed.'),
    '404': responseRef('NotFound', 'No such account (in the organization, for an organization key).'),
  },
};

/** The account routes of an organization key. */
export const ACCOUNT_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/accounts', {
    ...ACCOUNT_LISTING,
    operationId: 'listAccounts',
    summary: "The organization's accounts, a page at a time",
    tags: ['accounts'],
  }),
  operation('GET', '/accounts/{iban}', {
    operationId: 'getAccount',
    summary: 'One account',
    tags: ['accounts'],
    parameters: [parameterRef('Iban')],
    responses: {
      '200': ok('The account.', schemaRef('Account')),
      '400': responseRef('BadRequest', 'The IBAN is malformed or its check digits do not match.'),
      '404': responseRef('NotFound', 'No such account in the organization.'),
    },
  }),
  operation('PUT', '/accounts/{iban}', {
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
      '400': responseRef(
        'BadRequest',
        'The IBAN or the URL is invalid (the URL policy refuses it, e.g. not https or a private address).',
      ),
      '404': responseRef('NotFound', 'No such account in the organization.'),
    },
  }),
  operation('POST', '/accounts/{iban}/enable', {
    ...ENABLE,
    operationId: 'enableEndpoint',
    tags: ['accounts'],
  }),
];
