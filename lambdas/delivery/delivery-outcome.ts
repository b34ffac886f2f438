/**
 * What happened to one delivery message: the outcomes the consumer logs, counts and settles the message
 * by, and how a recorded attempt becomes one.
 */
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import type { EndpointNote } from './endpoint-health';
import type { UrlHold } from './held-invocation';
import type { ErroredHandling } from './postponement-rule';
import type { AfterAttempt } from './retry-rule';
import type { SentAttempt } from './webhook-request';

/** An attempt's outcome carries the endpoint's health when the attempt changed (wrote) it. */
export interface Attempted extends EndpointNote {
  readonly event: EventRecord;
  readonly attempt: DeliveryAttempt;
  /** When the client certificate the attempt presented expires (ISO 8601), for the expiry metric. */
  readonly clientCertificateExpiresAt?: string | undefined;
  /** What kept Herald from making the request (recorded as a failed attempt saying why), for the logs. */
  readonly notSentError?: unknown;
}

/** What happened to one delivery message. */
export type DeliveryOutcome =
  | ({ readonly kind: 'delivered' } & Attempted)
  | ({ readonly kind: 'retry'; readonly retryAfterSeconds: number } & Attempted)
  | ({ readonly kind: 'exhausted' } & Partial<Attempted> & {
        readonly event: EventRecord;
        /** The event's account delivers in order: the events after it go on without it. */
        readonly ordered?: boolean;
      })
  /** A duplicate message that came before the scheduled retry: it waits for it instead. */
  | { readonly kind: 'not-due'; readonly retryAfterSeconds: number }
  /**
   * The endpoint's circuit is open or its slots are taken, or (`hold`) a message pulled by a held
   * invocation is for a URL held there: no attempt made, none recorded.
   */
  | {
      readonly kind: 'deferred';
      readonly retryAfterSeconds: number;
      readonly reason: string;
      readonly hold?: UrlHold;
    }
  /** An ordered account's event waits for an earlier one to settle: no attempt made, none recorded. */
  | { readonly kind: 'waiting'; readonly retryAfterSeconds: number; readonly reason: string }
  | { readonly kind: 'skipped' | 'dropped' | 'duplicate'; readonly reason: string }
  /** A fanned-out event's own message: one message sent per routed endpoint, each delivering it there. */
  | { readonly kind: 'routed'; readonly endpoints: number }
  /**
   * The event's account belongs to another organization now: nothing is sent, signed or recorded, and the
   * event settles `skipped`. Kept apart from `skipped` because it means data was about to cross organizations.
   */
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * A delivery that threw, with what it left behind (`left`: the lease it took, a request it sent and
 * did not record), which its message must not come back before (`errorReturnNotBefore`): it would find
 * the event leased and drop itself, or send the webhook again at once.
 */
export interface Thrown {
  readonly kind: 'thrown';
  readonly error: unknown;
  readonly left: ErroredHandling;
}

/** The outcome of a recorded attempt, with what the endpoint's report and the request add for the logs. */
export function attemptOutcome(
  next: AfterAttempt,
  recorded: EventRecord,
  sent: SentAttempt,
  note: EndpointNote,
  endpoint: Endpoint,
): DeliveryOutcome {
  let report: Omit<Attempted, 'event' | 'attempt'> = note;
  const certificate = endpoint.security?.tlsClient;
  if (certificate) report = { ...report, clientCertificateExpiresAt: certificate.expiresAt };
  if (sent.error !== undefined) report = { ...report, notSentError: sent.error };
  const { attempt } = sent;
  if (next.status === 'success') return { kind: 'delivered', event: recorded, attempt, ...report };
  // A concurrent first attempt succeeded meanwhile: this attempt is recorded, the event is done.
  if (recorded.webhookStatus === 'success')
    return { kind: 'dropped', reason: 'a concurrent attempt succeeded' };
  if (next.status === 'failed') return { kind: 'exhausted', event: recorded, attempt, ...report };
  const { retryAfterSeconds } = next;
  return { kind: 'retry', event: recorded, attempt, retryAfterSeconds, ...report };
}

/** Whether an outcome leaves its event settled (delivered, failed, skipped, or found so). */
export function settles(outcome: DeliveryOutcome): boolean {
  return ['delivered', 'exhausted', 'skipped', 'refused', 'dropped'].includes(outcome.kind);
}
