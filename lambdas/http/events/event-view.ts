/**
 * The JSON views of events (snake_case, as in the seed): the list element, the feed element, and the
 * single event with its attempts.
 */
import { ANSWER_BODY_MAX_BYTES } from '#config/limits';
import type { EndpointAttempt, EndpointPart, EventWithEndpoints } from '#domain/endpoints/event-parts';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import { renderTimestamp } from '#domain/time';
import { maskUrlSecrets } from '#domain/urls';
import { eventLinks } from '#domain/webhook-body';
import { carriedBytes, takeWithinBudget } from '#http/answer-size';
import type { DELIVERY, EVENT_ATTEMPT, EVENT_ENDPOINT } from '#http/openapi/attempts';
import type { EVENT_DETAIL, EVENT_SUMMARY, EVENT_VIEW, FEED_EVENT } from '#http/openapi/events';
import type { Static } from '#http/schema';

/** An element of `GET /events`. */
export type EventSummaryView = Static<typeof EVENT_SUMMARY>;
/** One attempt in `webhook_deliveries`. */
export type DeliveryView = Static<typeof DELIVERY>;
/**
 * An element of the catch-up feed (`GET /accounts/{iban}/events`): the event with its payload and
 * delivery state, without its attempts (`GET /events/{id}` has them). A receiver catching up applies
 * payloads; attempts, up to 60 bodies of 4 KiB each, would take most of every answer.
 */
export type FeedEventView = Static<typeof FEED_EVENT>;
/** A published event's answer: the feed's fields and its item's attempts. */
export type EventDetailView = Static<typeof EVENT_DETAIL>;
/** The answer of `GET /events/{id}`: the feed's fields, each routed endpoint's part, every attempt. */
export type EventView = Static<typeof EVENT_VIEW>;
/** An element of `endpoints` in `GET /events/{id}`. */
export type EventEndpointView = Static<typeof EVENT_ENDPOINT>;
/** An element of `webhook_deliveries` in `GET /events/{id}`. */
export type EventAttemptView = Static<typeof EVENT_ATTEMPT>;

/** The list view of an event: no payload, no attempts. */
export function toEventSummary(record: EventRecord, baseUrl: string): EventSummaryView {
  return {
    id: record.id,
    signature: record.signature ?? null,
    account: record.account,
    sequence: record.sequence ?? null,
    type: record.type,
    type_version: record.typeVersion ?? null,
    triggered_at: renderTimestamp(record.triggeredAt),
    webhook_status: record.webhookStatus,
    webhook_retries: record.webhookRetries,
    _links: eventLinks(baseUrl, record),
  };
}

/**
 * The event with its payload and delivery state (a feed element). The payload is read back from the
 * stored webhook body, so the API shows exactly what receivers were sent.
 */
export function toFeedEvent(record: EventRecord, baseUrl: string): FeedEventView {
  // Herald wrote the body around the payload it validated: a JSON object.
  const { payload } = JSON.parse(record.body) as { readonly payload: FeedEventView['payload'] };
  // The summary's fields, with the payload in its documented place.
  const { webhook_status, webhook_retries, _links, ...head } = toEventSummary(record, baseUrl);
  return {
    ...head,
    payload,
    webhook_status,
    webhook_retries,
    next_attempt_at:
      record.webhookStatus === 'pending' && record.nextAttemptAt !== undefined
        ? renderTimestamp(new Date(record.nextAttemptAt).toISOString())
        : null,
    _links,
  };
}

/** The single-event view: {@link toFeedEvent} and the attempts, in the stored order (oldest first). */
export function toEventDetail(record: EventRecord, baseUrl: string): EventDetailView {
  const { _links, ...fields } = toFeedEvent(record, baseUrl);
  return { ...fields, webhook_deliveries: record.deliveries.map(toDeliveryView), _links };
}

/**
 * The single event view: {@link toFeedEvent} of the event as a whole, its part at each routed endpoint,
 * and every attempt naming its endpoint, oldest first. Its attempts are bounded (an account's endpoints ×
 * 60 attempts of 4 KiB bodies), far below what an answer carries; should they ever pass it, the oldest
 * are left out (`webhook_retries` still counts them) rather than the answer failing.
 */
export function toEventView(record: EventWithEndpoints, baseUrl: string): EventView {
  const { _links, ...fields } = toFeedEvent(record.event, baseUrl);
  const endpoints = record.endpoints.map(toEndpointPartView);
  const rest = carriedBytes(JSON.stringify({ ...fields, webhook_deliveries: [], endpoints, _links }));
  const budget = ANSWER_BODY_MAX_BYTES - rest;
  const newestFirst = takeWithinBudget([...record.attempts].reverse(), toAttemptView, budget);
  // The seed's fields in their order, then each endpoint's part.
  return { ...fields, webhook_deliveries: newestFirst.reverse(), endpoints, _links };
}

function toEndpointPartView(part: EndpointPart): EventEndpointView {
  return {
    endpoint_id: part.endpointId ?? null,
    webhook_status: part.status,
    webhook_retries: part.retries,
    next_attempt_at:
      part.nextAttemptAt === undefined ? null : renderTimestamp(new Date(part.nextAttemptAt).toISOString()),
  };
}

function toAttemptView(attempt: EndpointAttempt): EventAttemptView {
  return { ...toDeliveryView(attempt), endpoint_id: attempt.endpointId ?? null };
}

/** One attempt as the API shows it. */
export function toDeliveryView(attempt: DeliveryAttempt): DeliveryView {
  return {
    delivery_at: renderTimestamp(attempt.deliveredAt),
    response_body: attempt.responseBody,
    response_status: attempt.responseStatus,
    response_time: attempt.responseTimeMs,
    // Masked again for attempts stored before their URLs were: a query's token is never shown.
    url: attempt.url === undefined ? null : maskUrlSecrets(attempt.url),
    signing_keys: attempt.signingKeys ?? [],
  };
}
