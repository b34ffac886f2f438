/**
 * The organization's operational notices in the OpenAPI document: the notice's schema and
 * `GET /operational-events`.
 */
import { MAX_LIST_DEPTH } from '#config/limits';
import { CERTIFICATE_WARNING_DAYS } from '#domain/endpoint-security/client-certificate';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import {
  DISABLING_SOON_PERCENTS,
  FAILING_NOTICE_AFTER,
  NOTICE_ANSWER_BYTES,
  NOTICE_KINDS,
} from '#domain/notices/notice';
import { OPERATIONAL_EVENTS_QUERY } from '#http/organizations/operational-events-request';
import {
  array,
  closed,
  IBAN,
  int,
  nullable,
  oneOfValues,
  ref,
  text,
  timestamp,
  WEBHOOK_STATUS,
} from '#http/schema';
import { DELIVERY } from './attempts';
import { badRequest, notFound, ok, pageOf, queryParameters, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** A notice's fields: what it says (its webhook's payload), beside its id and type. */
const NOTICE_FIELDS = {
  id: text('`ntc_…`: the same for every observer of the transition, so a notice is never told twice.', {
    pattern: '^ntc_[0-9a-f]{24}$',
  }),
  type: oneOfValues(
    NOTICE_KINDS,
    `The notice's type in the catalog (\`GET /event-types\`). \`endpoint_failing\`: the ${FAILING_NOTICE_AFTER}th consecutive failed attempt; ` +
      `\`endpoint_disabling_soon\`: past ${DISABLING_SOON_PERCENTS.join(' % and ')} % of the auto-disable ` +
      'period, still failing; `endpoint_disabled`; `endpoint_recovered`: the first 2xx after a run announced failing; ' +
      '`endpoint_enabled`: a disabled endpoint enabled again; `event_attempts_exhausted`: an event used up its ' +
      `attempts at the endpoint; \`client_certificate_expiring\`: fewer than ${CERTIFICATE_WARNING_DAYS} days left of its client certificate.`,
  ),
  account: IBAN,
  endpoint_id: text('The endpoint (`ep_…`); never its URL.', { pattern: ENDPOINT_ID_PATTERN.source }),
  since: timestamp(
    "The transition's start: the run's first failure, the disabling or enabling, the event's cycle's first attempt, or when the certificate's last days began",
  ),
  at: timestamp('When Herald decided the notice'),
  percent: nullable(int('`endpoint_disabling_soon`: the share of the auto-disable period passed.', 1)),
  consecutive_failures: int(
    "Failed attempts in a row when it was decided: at the endpoint, or (`event_attempts_exhausted`) of the event's cycle.",
    0,
  ),
  disable_at: nullable(timestamp('When the endpoint is disabled if it keeps failing')),
  reason: nullable(text("The endpoint's health reason (why it was disabled: a 410 or the period).")),
  last_answer: nullable(
    closed({
      status: int('HTTP status; 0: no answer.', 0),
      body_excerpt: text(`At most ${NOTICE_ANSWER_BYTES} bytes of the answer's body.`),
    }),
  ),
  event_id: nullable(text('`event_attempts_exhausted`: the event whose attempts ran out.')),
  event_type: nullable(text('`event_attempts_exhausted`: its type.')),
  sequence: nullable(int("`event_attempts_exhausted`: its place in its account's log.", 1)),
  expires_at: nullable(timestamp('`client_certificate_expiring`: when the client certificate expires')),
  webhook_status: ref('WebhookStatus', WEBHOOK_STATUS),
  webhook_retries: int(
    "Attempts to send it to the organization's operational webhook (`skipped`: the organization had none " +
      'when it was sent; 20 at most, on the retry schedule of every webhook).',
    0,
  ),
};

/** One operational notice. */
export const OPERATIONAL_EVENT = closed(NOTICE_FIELDS);

/** One operational notice with every attempt to send it (`GET /operational-events/{id}`). */
export const OPERATIONAL_EVENT_DETAIL = closed({
  ...NOTICE_FIELDS,
  webhook_deliveries: array(ref('Delivery', DELIVERY), {
    description: "Every attempt to send it to the organization's operational webhook, oldest first.",
  }),
});

/** The notice's schema, merged into `components.schemas`. */
export const OPERATIONAL_EVENT_SCHEMAS = {
  OperationalEvent: OPERATIONAL_EVENT,
  OperationalEventDetail: OPERATIONAL_EVENT_DETAIL,
};

/**
 * A page of the organization's notices, for an organization key's listing and the operator's
 * (`listOrganizationOperationalEvents`): what both say and answer.
 */
export const OPERATIONAL_EVENT_LISTING: SharedOperation = {
  summary: "The organization's operational notices about its endpoints, newest first",
  description:
    'Each transition of an endpoint once: it started failing, is approaching its disable point, was ' +
    'disabled, recovered, was enabled again; an event used up its attempts; a client certificate expires ' +
    'soon. Each type is in the catalog (`GET /event-types`, `operational: true`). Newest transition first, ' +
    'a run’s notices in the order they happened. Paged like ' +
    `\`GET /accounts\`: each request reads at most \`page × per_page\` (${MAX_LIST_DEPTH} at most) notices.`,
  parameters: queryParameters(OPERATIONAL_EVENTS_QUERY),
  responses: {
    '200': pageOf('notices', ref('OperationalEvent', OPERATIONAL_EVENT)),
    '400': responseRef(
      'BadRequest',
      'A query parameter is unknown, repeated or invalid, or the page is too deep.',
    ),
  },
};

/** `GET /operational-events` and `GET /operational-events/{id}`. */
export const OPERATIONAL_EVENT_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/operational-events', {
    operationId: 'listOperationalEvents',
    tags: ['accounts'],
    ...OPERATIONAL_EVENT_LISTING,
  }),
  operation('GET', '/operational-events/{id}', {
    operationId: 'getOperationalEvent',
    tags: ['accounts'],
    summary: 'One operational notice, with every attempt to send it to the operational webhook',
    description:
      "As `GET /events/{id}` shows an event's attempts: the notice and its delivery to the organization's " +
      `operational webhook. Found among the organization's ${MAX_LIST_DEPTH} newest notices (what the ` +
      'listing reaches).',
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The notice (`ntc_…`).',
        schema: { type: 'string', pattern: '^ntc_[0-9a-f]{24}$' },
      },
    ],
    responses: {
      '200': ok('The notice and its attempts.', ref('OperationalEventDetail', OPERATIONAL_EVENT_DETAIL)),
      '400': badRequest('The id is no notice id (`ntc_` and 24 lower-case hex digits).'),
      '404': notFound('No notice of the organization has this id (among its newest).'),
    },
  }),
];
