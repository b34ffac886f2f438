/**
 * The answers of the routes that queue events for delivery again: redeliver, reset, the operator's
 * requeue, and the upgrades (status indexes, account logs). `cursor` appears only while `more` is true.
 */
import type { INDEX_UPGRADE, REQUEUE } from '#http/openapi/admin-components';
import type { REDELIVERY, RESET } from '#http/openapi/events';
import type { MIGRATION_STEP } from '#http/openapi/feed';
import type { Static } from '#http/schema';

/** `POST /events/{id}/redeliver` (the `Redelivery` schema). */
export type RedeliveryView = Static<typeof REDELIVERY>;

/** `POST /management/webhooks/reset` (the `Reset` schema). */
export type ResetView = Static<typeof RESET>;

/** The operator's requeue (the `Requeue` schema). */
export type RequeueView = Static<typeof REQUEUE>;

/** The operator's status-index upgrade (the `IndexUpgrade` schema). */
export type IndexUpgradeView = Static<typeof INDEX_UPGRADE>;

/** The operator's upgrade to account logs (`migrateEvents`). */
export type MigrationView = Static<typeof MIGRATION_STEP>;

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

/** What one migration request did, and where the next one goes on. */
export function toMigrationView(
  result: { readonly migrated: number; readonly pending: number } & Chunk,
): MigrationView {
  return withCursor({ migrated: result.migrated, pending: result.pending, more: result.more }, result);
}

function withCursor<T extends object>(view: T, chunk: Chunk): T & { cursor?: string } {
  return chunk.cursor === undefined ? view : { ...view, cursor: chunk.cursor };
}
