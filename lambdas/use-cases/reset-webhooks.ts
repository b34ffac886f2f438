import { RESET_CHUNK } from '#config/limits';
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
  const { ids, more } = await deps.events.nextFailedOrSkipped(orgId, RESET_CHUNK);
  const queued: string[] = [];
  // Queued ten at a time, right after their cycles start, so a timeout strands at most one chunk.
  for (let start = 0; start < ids.length; start += 10) {
    const chunk: string[] = [];
    for (const id of ids.slice(start, start + 10)) {
      if (await deps.events.startCycle(id, orgId)) chunk.push(id);
    }
    await deps.queue.enqueue(chunk);
    queued.push(...chunk);
  }
  return { queued, more };
}
