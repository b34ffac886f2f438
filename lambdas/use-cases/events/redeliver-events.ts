import { MAX_ATTEMPTS } from '#config/delivery';
import { OPERATOR_PAGES_PER_REQUEST } from '#config/limits';
import { MAX_ATTEMPTS_PER_EVENT } from '#domain/delivery/policy';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { DeliveryQueue, EventStore } from '#domain/ports';

/** What redelivery needs. */
export interface RedeliverDeps {
  readonly events: EventStore;
  readonly queue: DeliveryQueue;
}

/** The events a redelivery queued. */
export interface RedeliveryResult {
  readonly queued: string[];
}

/**
 * Starts a new cycle of up to 20 attempts for one `failed` or `skipped` event of the organization.
 * Earlier attempts stay recorded and counted.
 *
 * @throws NotFoundError for an unknown event or one of another organization; ConflictError when the
 *   event is pending or already delivered
 */
export async function redeliverEvent(
  deps: RedeliverDeps,
  orgId: string,
  id: string,
): Promise<RedeliveryResult> {
  if (await deps.events.startCycle(id, orgId)) {
    await deps.queue.enqueue([id]);
    return { queued: [id] };
  }
  const event = await deps.events.getEvent(id, { consistent: true });
  if (!event || event.orgId !== orgId) throw new NotFoundError(`No event ${id}.`);
  // A redelivery cycle that started but has no attempt yet may have lost its message (the enqueue
  // failed): queue it again. Its attempts take the consumer's lease (the event has attempts already), so
  // a second message is harmless, while no message would leave it pending for good.
  if (event.webhookStatus === 'pending' && event.cycleBase > 0 && event.webhookRetries === event.cycleBase) {
    await deps.queue.enqueue([id]);
    return { queued: [id] };
  }
  if (event.webhookStatus !== 'pending' && event.webhookStatus !== 'success') {
    throw new ConflictError(
      `Event ${id} has used all ${MAX_ATTEMPTS_PER_EVENT / MAX_ATTEMPTS} delivery cycles (${MAX_ATTEMPTS_PER_EVENT} attempts).`,
    );
  }
  throw new ConflictError(
    event.webhookStatus === 'success'
      ? `Event ${id} was already delivered; only failed or skipped events can be redelivered.`
      : `Event ${id} is being delivered (webhook_status "pending"); only failed or skipped events can be redelivered.`,
  );
}

/** What one requeue request queued, and where the next one goes on. */
export interface RequeueResult extends RedeliveryResult {
  /** True when older events remain to examine: send the request again with `cursor`. */
  readonly more: boolean;
  readonly cursor?: string;
}

/**
 * Queues pending events again, for the runbook: when the forwarder gave up on stream records (its
 * failure alarm), their events stay `pending` with no message. A second message for an event that is
 * still being delivered is harmless: the consumer's status check and lease drop it. Each call examines
 * at most {@link OPERATOR_PAGES_PER_REQUEST} pages of 100 events, newest first, from `cursor` on.
 *
 * @param until - only events triggered at or before this ISO time (leave recent ones to the pipeline)
 */
export async function requeuePending(
  deps: RedeliverDeps,
  orgId: string,
  until: string,
  cursor?: string,
): Promise<RequeueResult> {
  const queued: string[] = [];
  let next = cursor;
  for (let page = 0; page < OPERATOR_PAGES_PER_REQUEST; page++) {
    const found = await deps.events.pageEventIdsByStatus(orgId, ['pending'], next, until);
    await deps.queue.enqueue(found.ids);
    queued.push(...found.ids);
    next = found.cursor;
    if (next === undefined) break;
  }
  return next === undefined ? { queued, more: false } : { queued, more: true, cursor: next };
}
