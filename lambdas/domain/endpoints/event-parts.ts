/**
 * An event as its single view shows it: the event as a whole, its part at each endpoint it was routed to,
 * and every attempt with the endpoint it was sent to (`use-cases/events/event-endpoints.ts` reads it).
 */
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';

/** An event's delivery at one endpoint it was routed to. */
export interface EndpointPart {
  /** Undefined only for the default endpoint of an account from before endpoint ids (or deleted since). */
  readonly endpointId: string | undefined;
  readonly status: WebhookStatus;
  /** Its attempts over all cycles. */
  readonly retries: number;
  /** Epoch ms; only while pending with a next attempt scheduled. */
  readonly nextAttemptAt?: number | undefined;
}

/** One attempt, and the endpoint it was sent to. */
export interface EndpointAttempt extends DeliveryAttempt {
  readonly endpointId: string | undefined;
}

/** The event with every endpoint's part. */
export interface EventWithEndpoints {
  /**
   * The event as a whole: its status (for a fanned-out event the aggregate), `webhookRetries` every
   * attempt of every endpoint, and `nextAttemptAt` the earliest of its pending endpoints'.
   */
  readonly event: EventRecord;
  /** One per routed endpoint, in the routing's order (the default endpoint first). */
  readonly endpoints: readonly EndpointPart[];
  /** Every attempt of every endpoint, oldest first. */
  readonly attempts: readonly EndpointAttempt[];
}
