/**
 * The JSON views of events (snake_case, as in the seed): the list element, the feed element, and the
 * single event with its attempts.
 */
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import { renderTimestamp } from '#domain/time';
import { maskUrlSecrets } from '#domain/urls';
import { type EventLinks, eventLinks } from '#domain/webhook-body';

/** An element of `GET /events`. */
export interface EventSummaryView {
  readonly id: string;
  /** The `X-Signature` of the latest attempt; null before the first. */
  readonly signature: string | null;
  readonly account: string;
  /** The event's place in its account's log; null for an event stored before sequences, not migrated. */
  readonly sequence: number | null;
  readonly type: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly triggered_at: string;
  readonly webhook_status: WebhookStatus;
  readonly webhook_retries: number;
  readonly _links: EventLinks;
}

/** One attempt in `webhook_deliveries`. */
export interface DeliveryView {
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly delivery_at: string;
  readonly response_body: string;
  /** 0 when no HTTP response arrived. */
  readonly response_status: number;
  /** Milliseconds. */
  readonly response_time: number;
  /** Where the attempt was sent; null for attempts recorded before URLs were kept. */
  readonly url: string | null;
  /**
   * Ids of what signed it: the tokens (`whk_…`), then the Ed25519 keys (`whak_…`), each new first; empty
   * when nothing was sent or not recorded.
   */
  readonly signing_keys: readonly string[];
}

/**
 * An element of the catch-up feed (`GET /accounts/{iban}/events`): the event with its payload and
 * delivery state, without its attempts (`GET /events/{id}` has them). A receiver catching up applies
 * payloads; attempts, up to 60 bodies of 4 KiB each, would take most of every answer.
 */
export interface FeedEventView {
  readonly id: string;
  readonly signature: string | null;
  readonly account: string;
  readonly sequence: number | null;
  readonly type: string;
  readonly triggered_at: string;
  readonly payload: unknown;
  readonly webhook_status: WebhookStatus;
  readonly webhook_retries: number;
  /**
   * `YYYY-MM-DD HH:MM:SS` UTC: when a pending event's next attempt is due (after a failure, or brought
   * forward); null otherwise, and for a pending event whose first attempt of the cycle is queued.
   */
  readonly next_attempt_at: string | null;
  readonly _links: EventLinks;
}

/** The answer of `GET /events/{id}`: the feed's fields and every attempt. */
export interface EventDetailView extends Omit<FeedEventView, '_links'> {
  readonly webhook_deliveries: readonly DeliveryView[];
  readonly _links: EventLinks;
}

/** The list view of an event: no payload, no attempts. */
export function toEventSummary(record: EventRecord, baseUrl: string): EventSummaryView {
  return {
    id: record.id,
    signature: record.signature ?? null,
    account: record.account,
    sequence: record.sequence ?? null,
    type: record.type,
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
  const body: unknown = JSON.parse(record.body);
  const payload = typeof body === 'object' && body !== null && 'payload' in body ? body.payload : null;
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
