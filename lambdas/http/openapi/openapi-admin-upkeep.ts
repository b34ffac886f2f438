/**
 * The OpenAPI operations of the operator's upkeep routes (AWS IAM): deleting an account and erasing its
 * events, registering an organization's usage key, and the one-off status-index upgrade. The chunked
 * ones answer `more` (and a `cursor`): each request's cost is bounded, the caller repeats it.
 */
import { OPERATOR_PAGES_PER_REQUEST, RESET_CHUNK } from '#config/limits';
import { json, ORG_PATH, operation } from './openapi-operation';
import {
  closed,
  EVENT_ID,
  type JsonSchema,
  type PathItemObject,
  parameterRef,
  responseRef,
  schemaRef,
  text,
} from './openapi-schemas';

const CURSOR = text('Where the previous request stopped: its `cursor`.');
const MORE = { type: 'boolean', description: 'Events remain: send the request again with `cursor`.' };
const query = (name: string, description: string, schema: JsonSchema) =>
  ({ name, in: 'query', required: false, description, schema }) as const;

/** Schemas of these routes, merged into `components.schemas`. */
export const UPKEEP_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  AccountErasure: {
    type: 'object',
    additionalProperties: false,
    required: ['iban', 'org_id', 'deleted', 'erased_events', 'more'],
    properties: {
      iban: text('The account.'),
      org_id: text('Its organization: name it as `org` in the following requests.'),
      deleted: { type: 'boolean', description: 'This request deleted the account (false once it is gone).' },
      erased_events: { type: 'integer', minimum: 0, description: 'Events this request erased.' },
      more: MORE,
      cursor: CURSOR,
    },
  },
  Requeue: {
    type: 'object',
    additionalProperties: false,
    required: ['queued', 'more'],
    properties: {
      queued: { type: 'array', items: EVENT_ID, description: 'Ids of the events queued again.' },
      more: MORE,
      cursor: CURSOR,
    },
  },
  IndexUpgrade: {
    type: 'object',
    additionalProperties: false,
    required: ['indexed', 'more'],
    properties: {
      indexed: { type: 'integer', minimum: 0, description: 'Events this request put into a status index.' },
      more: MORE,
      cursor: CURSOR,
    },
  },
  UsageKey: closed({
    org_id: text('The organization.'),
    usage_plan_id: {
      type: ['string', 'null'],
      description: 'The plan its key is in; null where there is none (the local runtime meters by itself).',
    },
  }),
};

/** `DELETE /admin/accounts/{iban}`, merged with the account's `PUT`. */
export const ACCOUNT_DELETE: PathItemObject = operation('DELETE', '/admin/accounts/{iban}', {
  operationId: 'deleteAccount',
  summary: 'Delete an account, and with `erase=true` its events',
  description:
    'Without `erase` the events stay readable until they expire. With `erase=true` each request also ' +
    "erases the events of the account among up to 1,000 of the organization's events; repeat it with " +
    '`org` and `cursor` from the answer while `more` is true (the account is deleted by the first).',
  tags: ['admin'],
  parameters: [
    parameterRef('Iban'),
    query('erase', 'Also erase the events of the account.', { enum: ['true', 'false'] }),
    query('org', 'The organization of the account; required to go on once the account is gone.', {
      type: 'string',
    }),
    query('cursor', 'Where the previous erasure request stopped.', { type: 'string' }),
  ],
  responses: {
    '200': {
      description: 'With `erase=true`: what this request did.',
      content: json(schemaRef('AccountErasure')),
    },
    '204': { description: 'Deleted; no body.' },
    '400': responseRef('BadRequest', 'The IBAN, `erase` or `cursor` is invalid, or a parameter is unknown.'),
    '404': responseRef('NotFound', 'No such account (of `org`), and no erasure to go on with.'),
  },
});

/** The organization routes of upkeep. */
export const UPKEEP_PATHS: Readonly<Record<string, PathItemObject>> = {
  '/admin/organizations/{org}/usage-key': operation('POST', '/admin/organizations/{org}/usage-key', {
    operationId: 'registerUsageKey',
    summary: "Register the organization's key in the usage plan",
    description:
      'Its own throttle and quota apply once its key is in the plan. New organizations are registered ' +
      'when created; this is for those created before. Idempotent. Takes no request body.',
    tags: ['admin'],
    parameters: ORG_PATH,
    responses: {
      '200': { description: 'Registered.', content: json(schemaRef('UsageKey')) },
      '404': responseRef('NotFound', 'No such organization.'),
    },
  }),
  '/admin/organizations/{org}/events/index-statuses': operation(
    'POST',
    '/admin/organizations/{org}/events/index-statuses',
    {
      operationId: 'indexEventStatuses',
      summary: 'Put earlier failed and skipped events into the status indexes',
      description:
        'Once after upgrading from a version without the sparse status indexes, so that status filters ' +
        `and reset (${RESET_CHUNK} events a request) see those events. Each request examines up to ` +
        `${OPERATOR_PAGES_PER_REQUEST * 100} events; repeat it with \`cursor\` while \`more\` is true.`,
      tags: ['admin'],
      parameters: ORG_PATH,
      requestBody: {
        required: false,
        content: json({ type: 'object', additionalProperties: false, properties: { cursor: CURSOR } }),
      },
      responses: {
        '200': { description: 'What this request did.', content: json(schemaRef('IndexUpgrade')) },
        '400': responseRef('BadRequest', 'The body or `cursor` is invalid.'),
      },
    },
  ),
};
