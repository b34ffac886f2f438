/**
 * Sequences stay unique when retention empties a log: DynamoDB's TTL deletes expired events, and a log
 * whose every event expired would start again at 1. The forwarder hears the TTL's deletions of log items
 * on the table stream and raises the account's `seq_floor` to each deleted sequence; publishing and the
 * migration continue above it (`next-sequence.ts`). Off the healthy path: only with retention on, one
 * conditional write per expired event.
 */
import type { EventRef } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';

/** What keeping the floor needs. */
export interface FloorDeps {
  readonly directory: Pick<DirectoryStore, 'raiseSequenceFloor'>;
}

/**
 * After the TTL deleted these log items: raises each account's floor to the deleted sequence, a
 * conditional maximum (`seq_floor < :s`) that is a no-op when the floor is already higher. Raised for
 * every deletion, not only when the log looks empty: a check of the log first would race with other
 * deletions and publishes (the read can see an event whose own deletion is still on its way), and a floor
 * below the log's latest event changes nothing, since publishing takes the higher of the two.
 */
export async function keepFloorAfterExpiry(deps: FloorDeps, expired: readonly EventRef[]): Promise<void> {
  for (const event of expired) {
    if (event.sequence === undefined) continue;
    await deps.directory.raiseSequenceFloor(event.account, event.orgId, event.sequence);
  }
}
