import { MAX_ATTEMPTS, MAX_ATTEMPTS_PER_EVENT } from '#config/delivery';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { DeliveryQueue, EventIdFilter, EventStore } from '#domain/ports';

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

/**
 * Redelivers every `failed` and `skipped` event of the organization, or of one account since a time
 * (pending ones are already being delivered, and successful ones are done).
 */
export async function resetWebhooks(
  deps: RedeliverDeps,
  orgId: string,
  filter?: EventIdFilter,
): Promise<RedeliveryResult> {
  const candidates = await deps.events.listEventIdsByStatus(orgId, ['failed', 'skipped'], undefined, filter);
  const queued: string[] = [];
  // Queued ten at a time, right after their cycles start, so a timeout strands at most one chunk.
  for (let start = 0; start < candidates.length; start += 10) {
    const chunk: string[] = [];
    for (const id of candidates.slice(start, start + 10)) {
      if (await deps.events.startCycle(id, orgId)) chunk.push(id);
    }
    await deps.queue.enqueue(chunk);
    queued.push(...chunk);
  }
  return { queued };
}

/**
 * Queues pending events again, for the runbook: when the forwarder gave up on stream records (its
 * failure alarm), their events stay `pending` with no message. A second message for an event that is
 * still being delivered is harmless: the consumer's status check and lease drop it.
 *
 * @param until - only events triggered at or before this ISO time (leave recent ones to the pipeline)
 */
export async function requeuePending(
  deps: RedeliverDeps,
  orgId: string,
  until: string,
): Promise<RedeliveryResult> {
  const queued = await deps.events.listEventIdsByStatus(orgId, ['pending'], until);
  await deps.queue.enqueue(queued);
  return { queued };
}
