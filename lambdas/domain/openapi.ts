/**
 * Herald's OpenAPI 3.1 document, served at `/openapi.json`. It is the written contract for everything
 * the seed left open (ordering, paging, statuses, errors, webhook headers and signatures), so the prose
 * here is as much a part of the interface as the schemas.
 */
import { API_ROUTES, MAX_ATTEMPTS, type RouteMethod } from '../../lib/shapes';
import { HERALD_VERSION } from '../version';
import { EVENT_ID_PATTERN } from './ids';
import {
  BEARER_SCHEME,
  HEADERS,
  type OpenApiDocument,
  type OperationObject,
  PARAMETERS,
  type PathItemObject,
  parameterRef,
  RESPONSES,
  responseRef,
  SCHEMAS,
  schemaRef,
} from './openapi-schemas';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from './retry-schedule';

export type * from './openapi-schemas';
export {
  BEARER_SCHEME,
  METHOD_NOT_ALLOWED_RESPONSE,
  ROUTE_NOT_FOUND_RESPONSE,
  TIMESTAMP_PATTERN,
} from './openapi-schemas';

/** `10 s`, `2 min`, `1 h 30 min`: the retry schedule in words. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  const minutes = (seconds % 3600) / 60;
  return `${Math.floor(seconds / 3600)} h${minutes === 0 ? '' : ` ${minutes} min`}`;
}

const SCHEDULE_HOURS = Math.round(DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((sum, s) => sum + s, 0) / 3600);

const API_DESCRIPTION = `Herald records the events of a banking gateway and delivers each one as a signed
webhook to the \`webhook_url\` of the account it belongs to. This API reads an organization's events and
accounts and starts redeliveries.

## Authentication
Every route except \`/health\` and \`/openapi.json\` needs \`Authorization: Bearer <api key>\`. A missing or
unknown key answers 401 with \`WWW-Authenticate: Bearer\`.

## Conventions
- Timestamps are UTC, rendered \`YYYY-MM-DD HH:MM:SS\` (no zone suffix; fractions of a second are cut).
- Event ids are UUIDs (version 4 or 7) in lower-case canonical form. IBANs are shown normalised: upper case,
  no blanks.
- Answers carry \`Cache-Control: no-store\`. Objects may gain fields in later versions; clients should ignore
  unknown ones.

## Listing events
\`GET /events\` lists newest first: by \`triggered_at\` descending, ties by \`id\` descending. Pages are
numbered from 1 (\`per_page\` 1 to 100, default 10). The body is a bare JSON array, so paging travels in the
RFC 8288 \`Link\` header: \`rel="first"\` always, \`rel="prev"\` after page 1, \`rel="next"\` when more events
follow; its URLs keep the request's filters and \`per_page\`. There is no total count. Pages are offsets:
events recorded between two requests shift them. Unknown or repeated query parameters answer 400 instead of
being ignored.

## Delivery state
\`webhook_status\` is \`pending\` (attempts under way or due), \`success\` (the receiver answered 2xx; final),
\`failed\` (all ${MAX_ATTEMPTS} attempts of the cycle failed) or \`skipped\` (the account has no
\`webhook_url\`; nothing was sent). \`webhook_retries\` counts the attempts of all cycles and equals the
length of \`webhook_deliveries\` (oldest first). \`response_time\` is in milliseconds; \`response_status\` is
0 when no HTTP answer arrived, and \`response_body\` then says why.

## Redelivery
\`POST /events/{id}/redeliver\` and \`POST /management/webhooks/reset\` give \`failed\` and \`skipped\` events
a new cycle of up to ${MAX_ATTEMPTS} attempts and answer 202 with the ids queued. Earlier attempts stay
recorded. Redelivering a \`pending\` or \`success\` event answers 409.

## Errors
Errors are RFC 9457 \`application/problem+json\`: \`type\` (\`https://herald.dev/problems/<slug>\`),
\`title\`, \`status\`, \`detail\` and \`instance\` (the request id); 400 answers add \`invalid_params: [{name,
reason}]\`. An unknown path answers 404, a known path with another method 405 with \`Allow\`, a request over
the rate limit 429. 5xx bodies never reveal the cause.

## Webhooks
See the \`event\` webhook for the request Herald sends, its headers and how to verify its signatures.

## Versioning
\`info.version\` is Herald's version (semantic versioning). Paths carry no version.`;

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
  "<webhook-id>.<webhook-timestamp>.<body>")>\`, always with the current token. Reject timestamps far from
  your clock (e.g. 5 minutes) to stop replays.

Verify over the raw body bytes, before parsing, and compare signatures in constant time.`;

const header = (name: string, description: string, pattern: string) =>
  ({ name, in: 'header', required: true, description, schema: { type: 'string', pattern } }) as const;

/** Whether API Gateway's authorizer guards the route; an unknown route is documented as guarded. */
function isGuarded(method: RouteMethod, path: string): boolean {
  return API_ROUTES.find((route) => route.method === method && route.path === path)?.authorized ?? true;
}

/**
 * An operation with what every route shares: its security from {@link API_ROUTES}, 401 on guarded
 * routes, and the gateway's 429 and 500, which any request can meet.
 */
function operation(method: RouteMethod, path: string, op: Omit<OperationObject, 'security'>): PathItemObject {
  const guarded = isGuarded(method, path);
  const full: OperationObject = {
    ...op,
    security: guarded ? [{ [BEARER_SCHEME]: [] }] : [],
    responses: {
      ...op.responses,
      ...(guarded ? { '401': responseRef('Unauthorized') } : {}),
      '429': responseRef('TooManyRequests'),
      '500': responseRef('InternalError'),
    },
  };
  return method === 'GET' ? { get: full } : { post: full };
}

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const redelivery = (description: string) => ({ description, content: json(schemaRef('Redelivery')) });

const PATHS: Readonly<Record<string, PathItemObject>> = {
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
  '/events': operation('GET', '/events', {
    operationId: 'listEvents',
    summary: 'List events, newest first',
    description: 'Sorted by `triggered_at` descending, then `id` descending. Filters combine with AND.',
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
        'A query parameter is unknown, repeated or invalid, or `until` is before `since`.',
      ),
    },
  }),
  '/events/{id}': operation('GET', '/events/{id}', {
    operationId: 'getEvent',
    summary: 'One event with its payload and delivery attempts',
    tags: ['events'],
    parameters: [parameterRef('EventId')],
    responses: {
      '200': { description: 'The event.', content: json(schemaRef('EventDetail')) },
      '400': responseRef('BadRequest', 'The id is not a lower-case UUID (version 4 or 7).'),
      '404': responseRef('NotFound', 'No such event in the organization.'),
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
      '400': responseRef('BadRequest', 'The id is not a lower-case UUID (version 4 or 7).'),
      '404': responseRef('NotFound', 'No such event in the organization.'),
      '409': responseRef('Conflict', 'The event is `pending` (being delivered) or `success` (delivered).'),
    },
  }),
  '/management/webhooks/reset': operation('POST', '/management/webhooks/reset', {
    operationId: 'resetWebhooks',
    summary: 'Redeliver every failed or skipped event',
    description:
      'Each `failed` or `skipped` event of the organization starts a new cycle. Takes no request body.',
    tags: ['delivery'],
    responses: { '202': redelivery('Queued: `queued` holds the ids, possibly none.') },
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
  '/accounts/{iban}': operation('GET', '/accounts/{iban}', {
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
};

const WEBHOOKS: Readonly<Record<string, PathItemObject>> = {
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
          '`v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`.',
          '^v1,[A-Za-z0-9+/]{43}=$',
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

/**
 * The OpenAPI 3.1 document of the API, with `baseUrl` as its only server. Pure: the same base URL
 * always gives an equal document.
 *
 * @param baseUrl - the API's public base URL, e.g. `https://api.example.com/prod`
 */
export function buildOpenApiDocument(baseUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Herald',
      version: HERALD_VERSION,
      summary: 'Event records and signed, retried webhooks for a banking gateway.',
      description: API_DESCRIPTION,
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: baseUrl.replace(/\/+$/, '') }],
    tags: [
      { name: 'events', description: 'Recorded events, read-only.' },
      { name: 'delivery', description: 'Starting webhook redeliveries.' },
      { name: 'accounts', description: 'Tracked accounts and their webhook URLs.' },
      { name: 'service', description: 'Liveness and this document; no API key needed.' },
      { name: 'webhooks', description: 'What Herald sends to receivers.' },
    ],
    paths: PATHS,
    webhooks: WEBHOOKS,
    components: {
      schemas: SCHEMAS,
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: RESPONSES,
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key of the organization (`herald_…`), sent as `Authorization: Bearer <api key>`.',
        },
      },
    },
  };
}
