/**
 * The JSON views of events and accounts (snake_case, as in the seed), and the webhook body.
 */
import type { Account, DeliveryAttempt, EventRecord, WebhookStatus } from './model';
import { renderTimestamp } from './time';
import { joinUrl, pathSegment } from './urls';

/** `_links` of an event. */
export interface EventLinks {
  readonly self: string;
  readonly account: string;
}

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
  readonly _links: { readonly self: string; readonly events: string };
}

/** What {@link webhookBody} needs; the same fields at publish time and in tests. */
export interface WebhookBodyInput {
  readonly id: string;
  readonly type: string;
  readonly account: string;
  /** ISO timestamp. */
  readonly triggeredAt: string;
  /** The payload's JSON text, embedded as is. */
  readonly payloadJson: string;
  readonly baseUrl: string;
}

/** Links of an event: its own URL and its account's. */
export function eventLinks(baseUrl: string, record: Pick<EventRecord, 'id' | 'account'>): EventLinks {
  return {
    self: joinUrl(baseUrl, `/events/${pathSegment(record.id)}`),
    account: joinUrl(baseUrl, `/accounts/${pathSegment(record.account)}`),
  };
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
  return {
    id: record.id,
    signature: record.signature,
    account: record.account,
    type: record.type,
    triggered_at: renderTimestamp(record.triggeredAt),
    payload,
    webhook_status: record.webhookStatus,
    webhook_retries: record.webhookRetries,
    webhook_deliveries: record.deliveries.map(toDeliveryView),
    _links: eventLinks(baseUrl, record),
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

/**
 * The webhook body, `{"id","type","account","triggered_at","payload","_links"}`, assembled as text so
 * the payload JSON appears byte for byte as given: the body is built once at publish time, signed and
 * stored, and every attempt sends those same bytes.
 *
 * @throws TypeError or SyntaxError when `payloadJson` is not the JSON text of an object
 */
export function webhookBody(input: WebhookBodyInput): string {
  // A malformed payload text would make every attempt send broken JSON; refuse it once, here.
  const payload: unknown = JSON.parse(input.payloadJson);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new TypeError('webhookBody: payloadJson must be the JSON text of an object');
  }
  const links = eventLinks(input.baseUrl, input);
  return (
    `{"id":${JSON.stringify(input.id)},"type":${JSON.stringify(input.type)},` +
    `"account":${JSON.stringify(input.account)},` +
    `"triggered_at":${JSON.stringify(renderTimestamp(input.triggeredAt))},` +
    `"payload":${input.payloadJson},"_links":${JSON.stringify(links)}}`
  );
}

/** The view of an account, linking to its events. */
export function toAccountView(account: Account, baseUrl: string): AccountView {
  return {
    iban: account.iban,
    webhook_url: account.webhookUrl ?? null,
    _links: {
      self: joinUrl(baseUrl, `/accounts/${pathSegment(account.iban)}`),
      events: joinUrl(baseUrl, `/events?account=${encodeURIComponent(account.iban)}`),
    },
  };
}
