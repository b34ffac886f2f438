/**
 * Sequences stay unique when retention empties a log: DynamoDB's TTL deletes expired events, and a log
 * whose every event expired would start again at 1. The forwarder hears the TTL's deletions of log items
 * on the table stream; when a deleted event was the last of its log, the account's `seq_floor` is raised
 * to its sequence, and publishing continues above it (`store-in-log.ts`). Off the healthy path: only with
 * retention on, one log read per expired event.
 */
import type { EventRef } from '#domain/model';
import type { DirectoryStore, EventStore } from '#domain/ports';

/** What keeping the floor needs. */
export interface FloorDeps {
  readonly events: Pick<EventStore, 'latestSequence'>;
  readonly directory: Pick<DirectoryStore, 'raiseSequenceFloor'>;
}

/** After the TTL deleted these log items: raises each account's floor where its log holds nothing later. */
export async function keepFloorAfterExpiry(deps: FloorDeps, expired: readonly EventRef[]): Promise<void> {
  for (const event of expired) {
    if (event.sequence === undefined) continue;
    const latest = await deps.events.latestSequence(event.orgId, event.account, { consistent: true });
    if (latest < event.sequence) {
      await deps.directory.raiseSequenceFloor(event.account, event.orgId, event.sequence);
    }
  }
}
