/**
 * Each event's delivery state, the event store's role that the consumer, a redelivery, a reset and a
 * replay write: the order gate's read of a log, the lease of the next attempt, the recorded attempts,
 * the settling of an event and of its routed endpoints, and new cycles. Re-exported by `ports.ts`.
 */

import type { LogWindow } from './account-log';
import type { EventReads, LogHoles } from './event-store-port';
import type { DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from './model';

/** A consumer's claim on an event's next attempt (times in epoch ms): see {@link DeliveryLedger.takeLease}. */
export interface LeaseClaim {
  /** The attempts the event has as the consumer read it; another count means another consumer used it. */
  readonly expectedRetries: number;
  /** When the lease ends. */
  readonly untilEpochMs: number;
  /** Now: a lease still live then is another consumer's. */
  readonly nowEpochMs: number;
  /** The latest the next attempt may be due: a duplicate message must not bring a scheduled retry forward. */
  readonly dueByEpochMs: number;
}

/**
 * Each event's delivery state: the order gate's read of a log (closing its holes), the consumer's lease
 * and recorded attempts, settling, and the new cycle or earlier attempt a redelivery, a reset or a
 * replay asks for.
 */
export interface DeliveryLedger extends EventReads, LogHoles {
  /** `EventLog.readLog` with the delivery state only (the order gate's read): no body, no attempts. */
  readLogEntries(orgId: string, account: string, afterSequence: number, limit: number): Promise<LogWindow>;
  /**
   * Claims the next attempt until `claim.untilEpochMs`: succeeds only if the event is pending, has
   * exactly `claim.expectedRetries` attempts, no lease live at `claim.nowEpochMs`, and its next attempt is
   * due by `claim.dueByEpochMs`. Returns false when another consumer holds or used the claim.
   */
  takeLease(ref: EventRef, claim: LeaseClaim): Promise<boolean>;
  /**
   * Appends one attempt, increments `webhook_retries` and sets the status, in one atomic write. A
   * non-success status is only written while the event is still pending (a concurrent success wins);
   * the attempt itself is always recorded. `nextAttemptAt` (epoch ms) is stored for a pending event; the
   * attempt's `signature`, when it sent one, becomes the event's `signature`.
   *
   * @throws EventItemFullError when the event's stored item cannot hold the attempt (nothing written)
   */
  recordAttempt(
    ref: EventRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord>;
  /**
   * Makes the next attempt of the organization's pending event due at `nowEpochMs` (a consumer then
   * takes a lease for it, as for any scheduled attempt); false when the event is not the organization's,
   * not pending, or a consumer holds its lease (an attempt is under way).
   */
  bringForward(ref: EventRef, orgId: string, nowEpochMs: number): Promise<boolean>;
  /**
   * Marks a pending event of an ordered account that waits for an earlier one: sets its next attempt due
   * now unless one is set (so the consumer leases even its first attempt, and a message sent again when
   * the earlier one settles makes no second attempt); false when it is not pending or a lease is live.
   */
  markWaiting(ref: EventRef, nowEpochMs: number): Promise<boolean>;
  /**
   * Records the endpoints the event is routed to unless a routing is recorded already (the first decision
   * wins, whatever concurrent consumers decided) or the event had an attempt (it went to the default
   * endpoint before a routing was decided, and keeps going there alone); answers the routing the event
   * holds now, undefined when the event is gone or was attempted unrouted.
   */
  recordRoutes(ref: EventRef, routes: readonly string[]): Promise<readonly string[] | undefined>;
  /**
   * Counts one routed endpoint's settled delivery on the event's aggregate, once per endpoint (counting
   * the same endpoint again changes nothing): its attempts are added to `webhook_retries`; a `failed` one
   * makes the event `failed` at once; the last one to settle makes a still pending event `success` when
   * one delivery succeeded (the others succeeded or were skipped), `skipped` when every one was skipped;
   * an endpoint the event was not routed to is not counted. Answers the event's status after it; undefined when the
   * event is gone or was never routed.
   */
  settleRoute(
    ref: EventRef,
    endpointId: string,
    status: 'success' | 'failed' | 'skipped',
    attempts: number,
  ): Promise<WebhookStatus | undefined>;
  /**
   * Takes one routed endpoint's settled delivery out of the event's aggregate, before a new cycle of that
   * delivery alone: the endpoint is no longer counted settled (nor failed, nor skipped), and the event is
   * `pending` again, unless another endpoint's delivery failed for good (it stays `failed`: the aggregate
   * fails as soon as one fails). Its attempts stay counted in `webhook_retries`. False when the event is
   * gone or was never routed.
   */
  reopenRoute(ref: EventRef, endpointId: string): Promise<boolean>;
  /** Sets the status of a pending event (e.g. `skipped`, `failed`); false when it was not pending. */
  settlePending(ref: EventRef, status: 'skipped' | 'failed'): Promise<boolean>;
  /**
   * Starts a new delivery cycle for a `failed`, `skipped` or `success` event (a replay sends a delivered
   * one again): status `pending`, cycle base = current attempts, one more cycle counted unless the current
   * one made no attempt (it is replaced). False when the event is pending, or has counted `MAX_CYCLES`
   * cycles (it then leaves the status indexes, so `EventUpkeep.nextFailedOrSkipped` no longer returns
   * it).
   */
  startCycle(ref: EventRef, orgId: string): Promise<boolean>;
}

/**
 * The event's stored item cannot grow by what a write adds (DynamoDB refuses an item over 400 KB): the
 * write changed nothing. Payloads are bounded so that this never happens to an event's attempts
 * (`MAX_PAYLOAD_BYTES_CEILING`); an event stored under a higher bound may still meet it.
 */
export class EventItemFullError extends Error {
  constructor(id: string) {
    super(`the stored item of event ${id} is full: the write would take it past its size limit`);
    this.name = 'EventItemFullError';
  }
}
