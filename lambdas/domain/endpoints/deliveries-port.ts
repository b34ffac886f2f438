/**
 * The delivery state of a fanned-out event (one routed to an extra endpoint) at each endpoint it was
 * routed to, its account's default one included: its own status, attempts, cycles, lease and next
 * attempt, apart from the event's item (which then keeps the aggregate; an event not fanned out keeps
 * its default endpoint's state there, as before endpoints), so that any number of endpoints and attempts
 * stays within an item's size, and each
 * endpoint's deliveries form an ordered partition of their own (by the event's sequence). Until its first
 * write a delivery is pending with no attempt: the fan-out creates nothing, the first lease, attempt or
 * settlement does.
 */
import type { LeaseClaim } from '#domain/delivery-ledger-port';
import type { DeliveryAttempt, DeliveryProgress, EventRef, WebhookStatus } from '#domain/model';
import type { ListWindow } from '#domain/queries';

/** Where a delivery is: the event in its account's log, and the routed endpoint's id. */
export interface DeliveryRef extends EventRef {
  /** The event's place in its account's log (deliveries exist only for events stored in logs). */
  readonly sequence: number;
  /** The routed endpoint's id (`ep_…`). */
  readonly endpointId: string;
  /**
   * The event's `expiresAt` (its retention): the delivery's first write stores it, so the delivery goes
   * with its event. Absent: kept, like the event.
   */
  readonly expiresAt?: number | undefined;
}

/** The state of one delivery; before its first write, pending with no attempt. */
export interface EndpointDelivery extends DeliveryProgress {
  readonly status: WebhookStatus;
  /** Attempts recorded over all cycles; always `deliveries.length`. */
  readonly retries: number;
  /** The event's route cycle (`EventRecord.routeCycle`) the delivery is in. Absent: 0. */
  readonly routeCycle?: number | undefined;
  /**
   * Cycles this delivery started on its own (a redelivery or replay naming its endpoint,
   * {@link EndpointDeliveries.startOwnCycle}), its first included: 1 to `MAX_CYCLES`. As an event's own, a
   * new cycle after one that made an attempt counts, one after a cycle that sent nothing takes its place
   * uncounted. The event's new cycles (route cycles) are counted on the event.
   */
  readonly cycles: number;
}

/** A delivery before its first write. */
export const UNTOUCHED: EndpointDelivery = {
  status: 'pending',
  retries: 0,
  cycleBase: 0,
  deliveries: [],
  cycles: 1,
};

/** A page of an endpoint's deliveries, newest event first: where each event is, and whether more follow. */
export interface DeliveryPage {
  readonly deliveries: readonly { readonly id: string; readonly sequence: number }[];
  readonly hasMore: boolean;
}

/** The deliveries of fanned-out events, with the conditions of the event's own ledger. */
export interface EndpointDeliveries {
  /** The delivery's state, read consistently ({@link UNTOUCHED} before its first write). */
  readDelivery(ref: DeliveryRef): Promise<EndpointDelivery>;
  /**
   * Claims the next attempt until `claim.untilEpochMs`: only if the delivery is pending, has exactly
   * `claim.expectedRetries` attempts, no lease live at `claim.nowEpochMs`, and its next attempt is due by
   * `claim.dueByEpochMs`; false otherwise.
   */
  takeLease(ref: DeliveryRef, claim: LeaseClaim): Promise<boolean>;
  /**
   * Appends one attempt, counts it and sets the status, in one atomic write; a non-success status only
   * while the delivery is pending (a concurrent success wins), the attempt always recorded. A stale ref
   * (the item is another event's: its log was erased and re-created) records nothing and answers
   * {@link UNTOUCHED}, never an error: the webhook was sent already, and the ref's next handling cannot
   * take the lease of another event's delivery, so nothing is sent again for it.
   */
  recordAttempt(
    ref: DeliveryRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery>;
  /** Settles a pending delivery (`skipped`, `failed`); false when it was not pending. */
  settlePending(ref: DeliveryRef, status: 'skipped' | 'failed'): Promise<boolean>;
  /**
   * Moves a delivery in an earlier route cycle into `routeCycle` (its event's, after a redelivery or
   * replay of the event): a settled one starts a new cycle (pending, its cycle base its attempts, no
   * lease, due now), a pending one only takes the number (its cycle and lease go on). False when it is in
   * that cycle or a later one already, or (`settled`) its status changed since it was read.
   *
   * @param settled - whether the delivery was settled when read
   */
  startCycle(ref: DeliveryRef, routeCycle: number, settled: boolean): Promise<boolean>;
  /**
   * Starts a new cycle of a settled delivery (`success`, `failed`, `skipped`) alone, within its event's
   * route cycle (a redelivery or replay naming its endpoint), as `DeliveryLedger.startCycle` does for an
   * event's own: status `pending`, cycle base = its attempts, no lease, one more cycle counted unless the
   * current one made no attempt (it is replaced). False when the delivery is pending (an untouched one
   * is), another event's, or has counted `MAX_CYCLES` cycles.
   */
  startOwnCycle(ref: DeliveryRef): Promise<boolean>;
  /**
   * The deliveries of one event at `endpointIds` (at most an account's endpoints), in one batch read,
   * eventually consistent (what a view shows): by endpoint id, only those written; an untouched delivery
   * (pending, no attempt) is absent.
   */
  readDeliveries(
    ref: EventRef & { readonly sequence: number },
    endpointIds: readonly string[],
  ): Promise<ReadonlyMap<string, EndpointDelivery>>;
  /**
   * One page of an endpoint's deliveries, newest event (highest sequence) first: `window.limit` of them
   * after skipping `window.offset`, from the endpoint's partition (eventually consistent; only deliveries
   * written, so an event appears once its first lease, attempt or settlement there), and whether more
   * follow. Reads every skipped entry: callers bound `offset + limit`.
   */
  listDeliveries(
    orgId: string,
    account: string,
    endpointId: string,
    window: ListWindow,
  ): Promise<DeliveryPage>;
}
