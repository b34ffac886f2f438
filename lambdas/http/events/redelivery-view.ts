/**
 * The answers of the routes that queue events for delivery again: redeliver, reset, the operator's
 * requeue and the status-index upgrade. `cursor` appears only while `more` is true.
 */

/** `POST /events/{id}/redeliver` (the `Redelivery` schema). */
export interface RedeliveryView {
  readonly queued: readonly string[];
}

/** `POST /management/webhooks/reset` (the `Reset` schema). */
export interface ResetView extends RedeliveryView {
  readonly more: boolean;
}

/** The operator's requeue (the `Requeue` schema). */
export interface RequeueView extends ResetView {
  readonly cursor?: string;
}

/** The operator's status-index upgrade (the `IndexUpgrade` schema). */
export interface IndexUpgradeView {
  readonly indexed: number;
  readonly more: boolean;
  readonly cursor?: string;
}

interface Chunk {
  readonly more: boolean;
  readonly cursor?: string | undefined;
}

/** The events a redelivery queued. */
export function toRedeliveryView(result: { readonly queued: readonly string[] }): RedeliveryView {
  return { queued: result.queued };
}

/** The events one reset request queued, and whether more remain. */
export function toResetView(result: {
  readonly queued: readonly string[];
  readonly more: boolean;
}): ResetView {
  return { queued: result.queued, more: result.more };
}

/** The events one requeue request queued, and where the next one goes on. */
export function toRequeueView(result: { readonly queued: readonly string[] } & Chunk): RequeueView {
  return withCursor({ queued: result.queued, more: result.more }, result);
}

/** What one index-upgrade request did, and where the next one goes on. */
export function toIndexUpgradeView(result: { readonly indexed: number } & Chunk): IndexUpgradeView {
  return withCursor({ indexed: result.indexed, more: result.more }, result);
}

function withCursor<T extends object>(view: T, chunk: Chunk): T & { cursor?: string } {
  return chunk.cursor === undefined ? view : { ...view, cursor: chunk.cursor };
}
