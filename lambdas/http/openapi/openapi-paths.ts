/**
 * The operations of Herald's OpenAPI document: its paths, the webhook it sends and the problem responses
 * they answer with. Kept apart from `openapi.ts` so the document's overview prose and its per-route
 * detail can each be read on their own.
 */

import { MAX_ATTEMPTS } from '#config/delivery';
import { MAX_LIST_DEPTH, RESET_CHUNK } from '#config/limits';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#domain/delivery/retry-schedule';
import { EVENT_ID_PATTERN } from '#domain/ids';
import {
  GATEWAY_PROBLEMS,
  NOT_FOUND_PROBLEM as NO_ROUTE,
  PROBLEM_TYPE_BASE,
} from '#http/problem/problem-types';
import { ACCOUNT_PUT, ADMIN_PATHS, MANAGE_PATHS, PUBLISH_EVENT } from './openapi-admin';
import { UPKEEP_PATHS } from './openapi-admin-upkeep';
import { ENABLE_PATHS } from './openapi-endpoint-health';
import { json, operation } from './openapi-operation';
import {
  type JsonSchema,
  METHOD_NOT_ALLOWED_RESPONSE,
  type OperationObject,
  type PathItemObject,
  parameterRef,
  type ResponseObject,
  ROUTE_NOT_FOUND_RESPONSE,
  responseRef,
  schemaRef,
} from './openapi-schemas';

/** `10 s`, `2 min`, `1 h 30 min`: the retry schedule in words. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  const minutes = (seconds % 3600) / 60;
  return `${Math.floor(seconds / 3600)} h${minutes === 0 ? '' : ` ${minutes} min`}`;
}

const SCHEDULE_HOURS = Math.round(DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((sum, s) => sum + s, 0) / 3600);

const WEBHOOK_DESCRIPTION = `Herald POSTs every event to the \`webhook_url\` of its account.

**Success and retries.** A 2xx answer confirms delivery. Anything else is a failed attempt: another status
(3xx too: redirects are not followed), no answer within 10 s (5 s to connect), or a refused URL. A cycle has
up to ${MAX_ATTEMPTS} attempts with increasing waits, by default (a deployment may set its own):
${DEFAULT_RETRY_SCHEDULE_SECONDS.map(duration).join(', ')}; about ${SCHEDULE_HOURS} hours in all. Every
attempt is recorded in \`webhook_deliveries\`; the receiver's body is kept up to 4 KiB.

**Same bytes every time.** The body is fixed when the event is recorded and every attempt, redeliveries
included, sends it byte for byte. Delivery is at least once and unordered: deduplicate on \`webhook-id\` (the
event id).

**Signatures.** The key is the base64-decoded part of the organization's \`webhook_token\` after \`whsec_\`.
- \`X-Signature: sha256=<hex HMAC-SHA256(key, body)>\`, the event's \`signature\` field. It is computed once,
  when the event is recorded, so after a token rotation earlier events keep the old token's signature.
- Standard Webhooks, whose libraries verify it: \`webhook-id\` (the event id), \`webhook-timestamp\` (Unix
  seconds of the attempt) and \`webhook-signature\` = \`v1,<base64 HMAC-SHA256(key,
  "<webhook-id>.<webhook-timestamp>.<body>")>\`, with the current token. For the overlap after a token
  rotation (24 h by default) a second signature with the previous token follows after a space
  (\`v1,<new> v1,<old>\`), so a receiver holding either secret verifies. Reject timestamps far from your
  clock (e.g. 5 minutes) to stop replays.

Verify over the raw body bytes, before parsing, and compare signatures in constant time.`;

const header = (name: string, description: string, pattern: string) =>
  ({ name, in: 'header', required: true, description, schema: { type: 'string', pattern } }) as const;

const redelivery = (description: string) => ({ description, content: json(schemaRef('Redelivery')) });
/** The answers of an unusable `{id}` on the event routes. */
const EVENT_ID_ERRORS = {
  '400': responseRef('BadRequest', 'The id is not a lower-case UUID (version 4 or 7).'),
  '404': responseRef('NotFound', 'No such event in the organization.'),
};

const LIST_EVENTS: Omit<OperationObject, 'security'> = {
  operationId: 'listEvents',
  summary: 'List events, newest first',
  description:
    'Sorted by `triggered_at` descending, then `id` descending. Filters combine with AND. Each request ' +
    `reads a bounded amount: \`page × per_page\` is at most ${MAX_LIST_DEPTH} (older events: move ` +
    '`until` back), and filters that match too few of the events one request may check answer 400 ' +
    'asking for a narrower `since`/`until` window.',
  tags: ['events'],
  parameters: ['Page', 'PerPage', 'Account', 'Type', 'Status', 'Since', 'Until'].map(parameterRef),
  responses: {
    '200': {
      description: 'One page of events; an empty array past the last page.',
      headers: { Link: { $ref: '#/components/headers/Link' } },
      content: json({ type: 'array', maxItems: 100, items: schemaRef('EventSummary') }),
    },
    '400': responseRef(
      'BadRequest',
      'A query parameter is unknown, repeated or invalid, `until` is before `since`, the page is ' +
        'deeper than the listing bound, or the filters need a narrower time window.',
    ),
  },
};

/** `paths`: every route of {@link API_ROUTES}, with what it takes and answers. */
export const PATHS: Readonly<Record<string, PathItemObject>> = {
  '/health': operation('GET', '/health', {
    operationId: 'health',
    summary: 'Liveness',
    tags: ['service'],
    responses: { '200': { description: 'The service answers.', content: json(schemaRef('Health')) } },
  }),
  '/openapi.json': operation('GET', '/openapi.json', {
    operationId: 'openapi',
    summary: 'This document',
    tags: ['service'],
    responses: {
      '200': {
        description: 'The OpenAPI 3.1 document, with this deployment as its server.',
        content: json({
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
        }),
      },
    },
  }),
  '/events/{id}': operation('GET', '/events/{id}', {
    operationId: 'getEvent',
    summary: 'One event with its payload and delivery attempts',
    tags: ['events'],
    parameters: [parameterRef('EventId')],
    responses: {
      '200': { description: 'The event.', content: json(schemaRef('EventDetail')) },
      ...EVENT_ID_ERRORS,
    },
  }),
  '/events/{id}/redeliver': operation('POST', '/events/{id}/redeliver', {
    operationId: 'redeliverEvent',
    summary: 'Redeliver a failed or skipped event',
    description: `Starts a new cycle of up to ${MAX_ATTEMPTS} attempts. Takes no request body.`,
    tags: ['delivery'],
    parameters: [parameterRef('EventId')],
    responses: {
      '202': redelivery('Queued: `queued` holds the event id.'),
      ...EVENT_ID_ERRORS,
      '409': responseRef('Conflict', 'The event is `pending` (being delivered) or `success` (delivered).'),
    },
  }),
  '/management/webhooks/reset': operation('POST', '/management/webhooks/reset', {
    operationId: 'resetWebhooks',
    summary: 'Redeliver every failed or skipped event',
    description:
      `Up to ${RESET_CHUNK} \`failed\` or \`skipped\` events of the organization start a new cycle per ` +
      'request, so each request costs the same however many there are; `more` says whether to send it ' +
      'again. Takes no request body.',
    tags: ['delivery'],
    responses: {
      '202': {
        description: 'Queued: `queued` holds the ids, possibly none.',
        content: json(schemaRef('Reset')),
      },
    },
  }),
  '/accounts': operation('GET', '/accounts', {
    operationId: 'listAccounts',
    summary: "The organization's accounts",
    description: 'All of them, by IBAN ascending; not paged.',
    tags: ['accounts'],
    responses: {
      '200': { description: 'The accounts.', content: json({ type: 'array', items: schemaRef('Account') }) },
    },
  }),
  '/accounts/{iban}': {
    ...ACCOUNT_PUT,
    ...operation('GET', '/accounts/{iban}', {
      operationId: 'getAccount',
      summary: 'One account',
      tags: ['accounts'],
      parameters: [parameterRef('Iban')],
      responses: {
        '200': { description: 'The account.', content: json(schemaRef('Account')) },
        '400': responseRef('BadRequest', 'The IBAN is malformed or its check digits do not match.'),
        '404': responseRef('NotFound', 'No such account in the organization.'),
      },
    }),
  },
  '/events': { ...operation('GET', '/events', LIST_EVENTS), ...PUBLISH_EVENT },
  ...MANAGE_PATHS,
  ...ADMIN_PATHS,
  ...UPKEEP_PATHS,
  ...ENABLE_PATHS,
};

/** `webhooks`: the request Herald sends to receivers, its headers and how to verify it. */
export const WEBHOOKS: Readonly<Record<string, PathItemObject>> = {
  event: {
    post: {
      operationId: 'receiveEvent',
      summary: "An event, POSTed to the account's `webhook_url`",
      description: WEBHOOK_DESCRIPTION,
      tags: ['webhooks'],
      parameters: [
        header('User-Agent', 'Herald and its version.', '^Herald/'),
        header('X-Signature', '`sha256=<hex HMAC-SHA256(key, body)>`.', '^sha256=[0-9a-f]{64}$'),
        header('webhook-id', 'The event id, the same on every attempt.', EVENT_ID_PATTERN.source),
        header('webhook-timestamp', 'Unix seconds of this attempt.', '^[0-9]+$'),
        header(
          'webhook-signature',
          '`v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`; during a rotation overlap a second one, with the previous token, after a space.',
          '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)?$',
        ),
      ],
      requestBody: { required: true, content: json(schemaRef('WebhookPayload')) },
      responses: {
        '2XX': { description: 'Delivered; no further attempts.' },
        default: { description: 'A failed attempt; retried while the cycle has attempts left.' },
      },
    },
  },
};

/** A problem answer whose body must carry exactly this status and problem type. */
function problem(
  status: number,
  slug: string | readonly string[],
  description: string,
  header?: string,
): ResponseObject {
  const schema: JsonSchema = {
    type: 'object',
    allOf: [schemaRef(status === 400 || status === 422 ? 'ValidationProblem' : 'Problem')],
    properties: {
      type:
        typeof slug === 'string'
          ? { const: PROBLEM_TYPE_BASE + slug }
          : { enum: slug.map((one) => PROBLEM_TYPE_BASE + one) },
      status: { const: status },
    },
  };
  const headers =
    header === undefined ? {} : { headers: { [header]: { $ref: `#/components/headers/${header}` } } };
  return { description, ...headers, content: { 'application/problem+json': { schema } } };
}

const { UNAUTHORIZED: AUTH, THROTTLED: SLOW, QUOTA_EXCEEDED: QUOTA, DEFAULT_5XX } = GATEWAY_PROBLEMS;

/** `components.responses`: every problem the API answers with. */
export const RESPONSES: Readonly<Record<string, ResponseObject>> = {
  BadRequest: problem(400, 'invalid-parameter', 'Invalid input; `invalid_params` says which and why.'),
  Unauthorized: problem(AUTH.status, AUTH.slug, 'The API key is missing or unknown.', 'WWW-Authenticate'),
  NotFound: problem(404, 'not-found', "No such resource in the organization (another's looks the same)."),
  [ROUTE_NOT_FOUND_RESPONSE]: problem(NO_ROUTE.status, NO_ROUTE.slug, 'No route has this path.'),
  [METHOD_NOT_ALLOWED_RESPONSE]: problem(405, 'method-not-allowed', 'The path has no such method.', 'Allow'),
  Conflict: problem(409, 'conflict', 'The state of the resource does not allow the request.'),
  Unprocessable: problem(422, 'unprocessable', 'A field names something that does not exist.'),
  Forbidden: problem(403, 'forbidden', 'These credentials may not call this route.'),
  SignatureProblem: problem(
    403,
    ['signature-required', 'invalid-signature', 'forbidden'],
    'An IAM route: the request is unsigned or carries an API key (`signature-required`), its SigV4 signature ' +
      'or credentials are wrong (`invalid-signature`), or the IAM policy denies it (`forbidden`).',
  ),
  TooManyRequests: problem(
    SLOW.status,
    [SLOW.slug, QUOTA.slug],
    "The API's or the organization's request rate (`too-many-requests`, retry later) or the " +
      "organization's daily quota (`quota-exceeded`, renews at 00:00 UTC) was exceeded.",
  ),
  InternalError: problem(DEFAULT_5XX.status, DEFAULT_5XX.slug, 'Internal error; the cause is not revealed.'),
};
