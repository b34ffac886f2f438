import { OPERATOR_PAGES_PER_REQUEST, RESET_CHUNK } from '#config/limits';
import type { EventRef } from '#domain/model';
import type { DeliveryLedger, DeliveryQueue, EventUpkeep } from '#domain/ports';
import type { RedeliverDeps } from './redeliver-events';

/** The events one reset request queued, and whether failed or skipped events remain. */
export interface ResetResult {
  readonly queued: string[];
  /** True when more `failed` or `skipped` events remain: send the request again to queue the next chunk. */
  readonly more: boolean;
}

/**
 * Redelivers up to {@link RESET_CHUNK} `failed` and `skipped` events of the organization (pending ones
 * are already being delivered, and successful ones are done). The events come from the sparse status
 * indexes, which a new cycle leaves, so repeating the request walks through the rest.
 */
export async function resetWebhooks(deps: RedeliverDeps, orgId: string): Promise<ResetResult> {
  const { events, more } = await deps.events.nextFailedOrSkipped(orgId, RESET_CHUNK);
  return { queued: await startCycles(deps, orgId, events), more };
}

/**
 * Starts a new cycle for each of `events` that may have one and queues them; the ids queued. Queued ten
 * at a time, right after their cycles start, so a timeout strands at most one chunk; `beforeQueue` runs
 * between the two (a replay puts an ordered account's watermark back below them). When a start or
 * `beforeQueue` throws, the chunk's events whose cycle started are queued all the same, then it throws:
 * a repeat leaves pending events alone, so none may be left pending without a message.
 */
export async function startCycles(
  deps: { readonly queue: Pick<DeliveryQueue, 'enqueue'>; readonly events: DeliveryLedger },
  orgId: string,
  events: readonly EventRef[],
  beforeQueue?: (started: readonly EventRef[]) => Promise<void>,
): Promise<string[]> {
  const queued: string[] = [];
  for (let start = 0; start < events.length; start += 10) {
    // A chunk's cycles start together (a request of 100 sequential updates ran past the function's
    // timeout on a slow table); chunks stay in order, so an ordered account's events queue in sequence.
    const slice = events.slice(start, start + 10);
    const started = await Promise.allSettled(slice.map((event) => deps.events.startCycle(event, orgId)));
    const chunk = slice.filter((_, i) => {
      const result = started[i];
      return result?.status === 'fulfilled' && result.value;
    });
    try {
      if (chunk.length > 0) await beforeQueue?.(chunk);
    } finally {
      await deps.queue.enqueue(chunk);
    }
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    queued.push(...chunk.map((event) => event.id));
  }
  return queued;
}

/** What one index-upgrade request did, and where the next one goes on. */
export interface IndexUpgradeStep {
  readonly indexed: number;
  /** True when events remain to examine: send the request again with `cursor`. */
  readonly more: boolean;
  readonly cursor?: string;
}

/**
 * Puts the organization's `failed` and `skipped` events that predate the sparse status indexes into them,
 * so that the status filters and reset see them: an operator's one-off after upgrading. Each call
 * examines at most {@link OPERATOR_PAGES_PER_REQUEST} pages of events from `cursor` on; repeat with the cursor
 * it returns until `more` is false.
 */
export async function indexStatuses(
  events: EventUpkeep,
  orgId: string,
  cursor?: string,
): Promise<IndexUpgradeStep> {
  let indexed = 0;
  let next = cursor;
  for (let page = 0; page < OPERATOR_PAGES_PER_REQUEST; page++) {
    const found = await events.pageEventIdsByStatus(orgId, ['failed', 'skipped'], next);
    for (const event of found.events) if (await events.indexStatus(event)) indexed++;
    next = found.cursor;
    if (next === undefined) break;
  }
  return next === undefined ? { indexed, more: false } : { indexed, more: true, cursor: next };
}
