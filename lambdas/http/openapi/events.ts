/**
 * Events in the OpenAPI document: the listing and its query, one event with its attempts (their schemas in
 * `attempts.ts`), publishing (AWS IAM), redelivery and reset; their schemas, parameters and the `Link` header.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import { MAX_ENDPOINTS_PER_ACCOUNT, MAX_LIST_DEPTH, RESET_CHUNK } from '#config/limits';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { X_SIGNATURE_PATTERN } from '#domain/signing/signatures';
import { PUBLISH_BODY, PUBLISH_REQUEST, REDELIVER_BODY } from '#http/events/event-request';
import { LIST_QUERY } from '#http/events/list-query';
import {
  anyObject,
  array,
  closed,
  described,
  EVENT_ID,
  EVENT_TYPE,
  flag,
  IBAN,
  int,
  nullable,
  ref,
  TIMESTAMP,
  text,
  timestamp,
  uri,
  WEBHOOK_STATUS,
} from '#http/schema';
import { DELIVERY, EVENT_ATTEMPT, EVENT_ENDPOINT } from './attempts';
import type { HeaderObject, ParameterObject } from './objects';
import { badRequest, notFound, ok, pageOf, parameterRef, queryParameters, responseRef } from './objects';
import { operation, type RouteDoc } from './operation';

/** An event's sequence, as the views and the webhook body show it. */
export const SEQUENCE = int(
  "The event's place in its account's log: 1, 2, 3, … per account, increasing by exactly 1 for each " +
    'event stored for the account, never reused. A receiver that saw N and now sees more than N + 1 ' +
    'missed events (read them with `GET /accounts/{iban}/events?after_sequence=N`); one that sees less ' +
    'than what it applied has an older update. Null only for an event stored before sequences and not ' +
    'migrated yet.',
  1,
);

/** Links of an event. */
export const EVENT_LINKS = closed({ self: uri('This event.'), account: uri('The account of the event.') });

/** The version of its type an event's payload passed at publish. */
export const TYPE_VERSION = int(
  "The version of the type's payload schema the payload passed when it was published (`docs/event-types.md`); " +
    'null for an event published before the catalog, or of a type outside it that the deployment accepted ' +
    'during a transition.',
  1,
);

/**
 * The fields of the list view; the feed element adds `payload` and `next_attempt_at`, the detail view the
 * attempts too, the webhook its payload.
 */
export const EVENT_FIELDS = {
  id: described(EVENT_ID, 'Event id: a UUID (v4 or v7) in lower-case canonical form.'),
  signature: nullable(
    text(
      'The `X-Signature` header of the latest attempt that sent a request (`t=<timestamp>,sha256=<hex>`, ' +
        'a second `sha256=` during a token overlap); null before the first. Each attempt signs itself.',
      { pattern: X_SIGNATURE_PATTERN.source },
    ),
  ),
  account: described(IBAN, 'IBAN of the account the event belongs to.'),
  sequence: nullable(SEQUENCE),
  type: ref('EventType', EVENT_TYPE),
  type_version: nullable(TYPE_VERSION),
  triggered_at: timestamp('When the event happened'),
  webhook_status: ref('WebhookStatus', WEBHOOK_STATUS),
  webhook_retries: int('Attempts over all cycles; equals the length of `webhook_deliveries`.', 0),
  _links: ref('EventLinks', EVENT_LINKS),
};

/** The fields of a feed element: the list view's, the payload and when the next attempt is due. */
const FEED_EVENT_FIELDS = {
  ...EVENT_FIELDS,
  payload: anyObject('The event-specific payload, as the webhook carried it.'),
  next_attempt_at: nullable(
    timestamp(
      'For a `pending` event, when its next attempt is due (after a failed attempt, or brought forward by ' +
        'a redelivery); null otherwise, and while the first attempt of a cycle is queued. An endpoint ' +
        'whose circuit is open (`webhook_health.circuit_open_until`) can hold it back longer',
    ),
  ),
};

/** An element of `GET /events`. */
export const EVENT_SUMMARY = closed(EVENT_FIELDS, 'An event as listed: no payload, no attempts.');
/** An element of the catch-up feed. */
export const FEED_EVENT = closed(
  FEED_EVENT_FIELDS,
  'An event of the catch-up feed: its payload and delivery state, without its attempts (`GET /events/{id}` ' +
    'has them).',
);
/** The answer of `GET /events/{id}` (and of publishing). */
export const EVENT_DETAIL = closed(
  {
    ...FEED_EVENT_FIELDS,
    webhook_deliveries: array(ref('Delivery', DELIVERY), { description: 'Oldest first.' }),
  },
  'One event with its payload and every delivery attempt.',
);

/** The answer of `GET /events/{id}`: the event as a whole, its part at each endpoint, every attempt. */
export const EVENT_VIEW = closed(
  {
    ...FEED_EVENT_FIELDS,
    webhook_retries: int(
      'Attempts over all cycles at every endpoint; equals the length of `webhook_deliveries`.',
      0,
    ),
    next_attempt_at: nullable(
      timestamp(
        'For a `pending` event, when its next attempt is due (the earliest of its pending endpoints); null ' +
          'otherwise, and while the first attempt of a cycle is queued. An endpoint whose circuit is open ' +
          '(`webhook_health.circuit_open_until`) can hold it back longer',
      ),
    ),
    webhook_deliveries: array(ref('EventAttempt', EVENT_ATTEMPT), {
      description: 'Every attempt at every endpoint, oldest first.',
    }),
    endpoints: array(ref('EventEndpoint', EVENT_ENDPOINT), {
      maxItems: MAX_ENDPOINTS_PER_ACCOUNT,
      description:
        "One per endpoint the event was routed to, its account's default endpoint first: an event of an " +
        'account with one endpoint subscribed to every event has one; an event no endpoint subscribed to, ' +
        'none. `webhook_status` is their aggregate: `success` once every one succeeded, `failed` as soon ' +
        'as one failed for good, `skipped` once all settled with one skipped, else `pending`.',
    }),
  },
  'One event with its payload, its delivery at each endpoint it was routed to and every attempt.',
);

const QUEUED = array(EVENT_ID, { description: 'Ids of the events that start a new cycle.' });
/** What a redelivery queued. */
export const REDELIVERY = closed({ queued: QUEUED });
/** What one reset request queued. */
export const RESET = closed({
  queued: QUEUED,
  more: flag('More `failed` or `skipped` events remain: send the request again for the next chunk.'),
});

/** The schemas of events, merged into `components.schemas`. */
export const EVENT_SCHEMAS = {
  Timestamp: TIMESTAMP,
  EventType: EVENT_TYPE,
  WebhookStatus: WEBHOOK_STATUS,
  EventLinks: EVENT_LINKS,
  EventSummary: EVENT_SUMMARY,
  FeedEvent: FEED_EVENT,
  EventDetail: EVENT_DETAIL,
  EventView: EVENT_VIEW,
  EventEndpoint: EVENT_ENDPOINT,
  EventAttempt: EVENT_ATTEMPT,
  Delivery: DELIVERY,
  Redelivery: REDELIVERY,
  Reset: RESET,
  PublishRequest: PUBLISH_REQUEST,
};

/** The event id in the path, merged into `components.parameters`. */
export const EVENT_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  EventId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Event id; another form answers 400.',
    schema: EVENT_ID,
  },
};

/** The `Link` header of a listing, merged into `components.headers`. */
export const LINK_HEADER: Readonly<Record<string, HeaderObject>> = {
  Link: {
    description: 'RFC 8288 paging: `first` always, `prev` after page 1, `next` when more events follow.',
    required: true,
    schema: {
      type: 'string',
      pattern: '^<[^>]+>; rel="first"(, <[^>]+>; rel="prev")?(, <[^>]+>; rel="next")?$',
    },
  },
};

/** What redelivering one event does, for the organization's route and the operator's. */
export const REDELIVER_DESCRIPTION =
  `A \`failed\`, \`skipped\` or \`success\` event starts a new cycle of up to ${MAX_ATTEMPTS} attempts (an ` +
  `event has at most ${MAX_CYCLES} cycles, its first included, however few attempts each made, not counting ` +
  'one that sent nothing; for an account with `delivery_order: ordered`, the later events wait for it ' +
  'again). A `pending` event has its next attempt brought forward to now, within its cycle (no extra ' +
  'attempt: a retry that was due later is made now instead; an open circuit of the endpoint still holds ' +
  'it back). A fanned-out event (routed to an extra endpoint) starts a new cycle at every endpoint it was ' +
  'routed to. With `endpoint_id`, only the delivery at that endpoint starts a new cycle (counted on that ' +
  `delivery: at most ${MAX_CYCLES}, its first included; 409 while it is pending), the others are not sent ` +
  'again; 404 when the event was not routed there. The body is optional.';

/** When a redelivery is refused. */
export const REDELIVER_CONFLICT = `The event has used all its ${MAX_CYCLES} cycles, or an attempt of it is under way right now.`;

/** The answers of an unusable `{id}` on the event routes. */
const EVENT_ID_ERRORS = {
  '400': badRequest('The id is not a lower-case UUID (version 4 or 7).'),
  '404': notFound('No such event in the organization.'),
};

/** The event routes. */
export const EVENT_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/events', {
    operationId: 'listEvents',
    summary: 'List events, newest first',
    description:
      'Sorted by `triggered_at` descending, then `id` descending. Filters combine with AND. Each request ' +
      `reads a bounded amount: \`page × per_page\` is at most ${MAX_LIST_DEPTH} (older events: move ` +
      '`until` back), and filters that match too few of the events one request may check answer 400 ' +
      'asking for a narrower `since`/`until` window.',
    tags: ['events'],
    parameters: queryParameters(LIST_QUERY),
    responses: {
      '200': pageOf('events', ref('EventSummary', EVENT_SUMMARY)),
      '400': badRequest(
        'A query parameter is unknown, repeated or invalid, `until` is before `since`, the page is ' +
          'deeper than the listing bound, the filters need a narrower time window, `endpoint_id` comes ' +
          "without `account`, or another filter beside an extra endpoint's `endpoint_id`.",
      ),
      '404': notFound(
        'With `endpoint_id`: no such account in the organization, or the account has no such endpoint.',
      ),
    },
  }),
  operation('POST', '/events', {
    operationId: 'publishEvent',
    summary: 'Record an event (AWS IAM)',
    description:
      'The gateway publishes with an AWS identity allowed `execute-api:Invoke`, SigV4-signed. Publishing an id ' +
      'again with the same content answers 200 with the stored event; other content answers 409.',
    tags: ['publishing'],
    requestBody: PUBLISH_BODY,
    responses: {
      '200': ok(
        'The id was already published with this content: the stored event.',
        ref('EventDetail', EVENT_DETAIL),
      ),
      '201': ok('Recorded; its webhook is on its way.', ref('EventDetail', EVENT_DETAIL)),
      '400': badRequest('A field is missing, unknown or invalid.'),
      '409': responseRef('Conflict', 'The id was published with other content.'),
      '422': responseRef('Unprocessable', 'No account with this IBAN is registered.'),
    },
  }),
  operation('GET', '/events/{id}', {
    operationId: 'getEvent',
    summary: 'One event with its payload, its delivery at each endpoint and every attempt',
    tags: ['events'],
    parameters: [parameterRef('EventId')],
    responses: { '200': ok('The event.', ref('EventView', EVENT_VIEW)), ...EVENT_ID_ERRORS },
  }),
  operation('POST', '/events/{id}/redeliver', {
    operationId: 'redeliverEvent',
    summary: 'Redeliver an event, or attempt a pending one now',
    description: REDELIVER_DESCRIPTION,
    tags: ['delivery'],
    parameters: [parameterRef('EventId')],
    requestBody: REDELIVER_BODY,
    responses: {
      '202': ok('Queued: `queued` holds the event id.', ref('Redelivery', REDELIVERY)),
      '400': badRequest(
        'The id is not a lower-case UUID (version 4 or 7), or `endpoint_id` is no endpoint id.',
      ),
      '404': notFound('No such event in the organization, or it was not routed to `endpoint_id`.'),
      '409': responseRef('Conflict', REDELIVER_CONFLICT),
    },
  }),
  operation('POST', '/management/webhooks/reset', {
    operationId: 'resetWebhooks',
    summary: 'Redeliver every failed or skipped event',
    description:
      `Up to ${RESET_CHUNK} \`failed\` or \`skipped\` events of the organization start a new cycle per ` +
      'request, so each request costs the same however many there are; `more` says whether to send it ' +
      'again. Takes no request body.',
    tags: ['delivery'],
    responses: { '202': ok('Queued: `queued` holds the ids, possibly none.', ref('Reset', RESET)) },
  }),
];
