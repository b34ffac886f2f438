/**
 * The JSON views of events and accounts (snake_case, as in the seed).
 */
import { type EndpointHealth, type EndpointState, HEALTHY } from '#domain/delivery/endpoint-health';
import type { Account, DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import { renderTimestamp } from '#domain/time';
import { joinUrl, pathSegment } from '#domain/urls';
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

/** The view of an account. */
export interface AccountView {
  readonly iban: string;
  /** null when events of the account are recorded but not delivered. */
  readonly webhook_url: string | null;
  readonly webhook_health: EndpointHealthView;
  readonly _links: { readonly self: string; readonly events: string };
}

/** The view of an endpoint's health (timestamps rendered like every other; null when unknown). */
export interface EndpointHealthView {
  readonly state: EndpointState;
  readonly since: string | null;
  readonly reason: string | null;
  readonly consecutive_failures: number;
  readonly failing_since: string | null;
  readonly last_success_at: string | null;
  readonly last_failure_at: string | null;
  readonly recent_latency_ms: number | null;
  readonly circuit_open_until: string | null;
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

/** The view of an account, linking to its events. */
export function toAccountView(account: Account, baseUrl: string): AccountView {
  return {
    iban: account.iban,
    webhook_url: account.webhookUrl ?? null,
    webhook_health: toEndpointHealthView(account.webhookHealth ?? HEALTHY),
    _links: {
      self: joinUrl(baseUrl, `/accounts/${pathSegment(account.iban)}`),
      events: joinUrl(baseUrl, `/events?account=${encodeURIComponent(account.iban)}`),
    },
  };
}

/** The health of an account's endpoint as the API shows it. */
export function toEndpointHealthView(health: EndpointHealth): EndpointHealthView {
  const time = (iso: string | undefined) => (iso === undefined ? null : renderTimestamp(iso));
  return {
    state: health.state,
    since: time(health.since),
    reason: health.reason ?? null,
    consecutive_failures: health.consecutiveFailures,
    failing_since: time(health.failingSince),
    last_success_at: time(health.lastSuccessAt),
    last_failure_at: time(health.lastFailureAt),
    recent_latency_ms: health.recentLatencyMs ?? null,
    circuit_open_until:
      health.circuitOpenUntil === undefined ? null : time(new Date(health.circuitOpenUntil).toISOString()),
  };
}
