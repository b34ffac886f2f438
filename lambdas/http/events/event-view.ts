/**
 * The JSON views of events (snake_case, as in the seed): the list element, and the single event with its
 * attempts.
 */
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import { renderTimestamp } from '#domain/time';
import { type EventLinks, eventLinks } from '#domain/webhook-body';

/** An element of `GET /events`. */
export interface EventSummaryView {
  readonly id: string;
  readonly signature: string;
  readonly account: string;
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
}

/** The answer of `GET /events/{id}`. */
export interface EventDetailView {
  readonly id: string;
  readonly signature: string;
  readonly account: string;
  readonly type: string;
  readonly triggered_at: string;
  readonly payload: unknown;
  readonly webhook_status: WebhookStatus;
  readonly webhook_retries: number;
  readonly webhook_deliveries: readonly DeliveryView[];
  readonly _links: EventLinks;
}

/** The list view of an event: no payload, no attempts. */
export function toEventSummary(record: EventRecord, baseUrl: string): EventSummaryView {
  return {
    id: record.id,
    signature: record.signature,
    account: record.account,
    type: record.type,
    triggered_at: renderTimestamp(record.triggeredAt),
    webhook_status: record.webhookStatus,
    webhook_retries: record.webhookRetries,
    _links: eventLinks(baseUrl, record),
  };
}

/**
 * The single-event view. The payload is read back from the stored webhook body, so the API shows
 * exactly what receivers were sent. Attempts keep the stored order, which is oldest first.
 */
export function toEventDetail(record: EventRecord, baseUrl: string): EventDetailView {
  const body: unknown = JSON.parse(record.body);
  const payload = typeof body === 'object' && body !== null && 'payload' in body ? body.payload : null;
  // The summary's fields, with the payload and the attempts in their documented places.
  const { webhook_status, webhook_retries, _links, ...head } = toEventSummary(record, baseUrl);
  return {
    ...head,
    payload,
    webhook_status,
    webhook_retries,
    webhook_deliveries: record.deliveries.map(toDeliveryView),
    _links,
  };
}

/** One attempt as the API shows it. */
export function toDeliveryView(attempt: DeliveryAttempt): DeliveryView {
  return {
    delivery_at: renderTimestamp(attempt.deliveredAt),
    response_body: attempt.responseBody,
    response_status: attempt.responseStatus,
    response_time: attempt.responseTimeMs,
  };
}
