/**
 * What the use-cases need from the outside world. Adapters in `lambdas/adapters/` implement these with
 * DynamoDB, SQS and HTTP; use-cases only see the interfaces. Each store's port has its own file; this one
 * gathers them and holds the delivery queue's and the webhook sender's.
 */

import type { QueuedDelivery } from './delivery-message';
import type { ClientTls } from './endpoint-security/endpoint-security';

// Who may call: API keys and portal sign-in links.
export * from './access-ports';
export type * from './account-log';
export type * from './delivery-ledger-port';
export { EventItemFullError } from './delivery-ledger-port';
export type * from './directory-port';
export type { ClientTls } from './endpoint-security/endpoint-security';
export type * from './endpoints/ports';
export type * from './event-store-port';
export type * from './event-types/store-port';
export type * from './queries';

/**
 * The delivery queue. Its message body is the codec in `delivery-message.ts`: the adapter writes it, the
 * batch use-cases read it.
 */
export interface DeliveryQueue {
  /**
   * Enqueues delivery of these events (each for its routed endpoint when it names one; batched by the
   * adapter); optional delay up to 900 s.
   */
  enqueue(events: readonly QueuedDelivery[], delaySeconds?: number): Promise<void>;
  /** Hides a received message for `seconds` (the visibility-timeout backoff). */
  postpone(receiptHandle: string, seconds: number): Promise<void>;
}

/** A received queue message, as much of it as the consumers need. */
export interface QueueMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  /** SQS's `ApproximateReceiveCount`, this receive included. */
  readonly receiveCount: number;
  /** Epoch ms when the message was first sent (`SentTimestamp`). */
  readonly sentAt: number;
}

/** The receiver's answer to one webhook POST. */
export interface SendResult {
  /** HTTP status, or 0 when no HTTP response arrived. */
  readonly status: number;
  /** Response body cut to the limit, or a description of the network error. */
  readonly body: string;
  readonly elapsedMs: number;
  /** The `Retry-After` header of the answer, as sent. */
  readonly retryAfter?: string | undefined;
}

/** One webhook request. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Mutual TLS for this request only: the endpoint's client certificate and key, and its receiver's CA. */
  readonly tls?: ClientTls | undefined;
}

/** Sends webhook POSTs. */
export interface WebhookSender {
  /**
   * Sends one request. A request it cannot make (its TLS context, the DNS answer, the connection) resolves
   * with status 0 and why, like a receiver that does not answer; the consumer records a throw the same way.
   */
  send(request: WebhookRequest): Promise<SendResult>;
}

/** The organizations' keys of the API's usage plan (each organization's own throttle and quota). */
export interface UsageKeys {
  /**
   * Makes the organization's requests metered by the plan (key value = organization id); idempotent.
   * Answers the plan's id, or undefined when the deployment has none to register with (locally).
   */
  register(orgId: string): Promise<string | undefined>;
}
