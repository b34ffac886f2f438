/**
 * The upgrade to account logs: an organization's events stored before sequences move into their
 * accounts' logs, a bounded chunk per request, resumable from the cursor each answers
 * (`POST /admin/organizations/{org}/events/migrate`, `herald events migrate`).
 */
import { MIGRATION_CHUNK, PUBLISH_SEQUENCE_TRIES } from '#config/limits';
import { BusyError } from '#domain/errors';
import type { DirectoryStore, EventLog, EventUpkeep } from '#domain/ports';
import { nextSequence } from './next-sequence';

/** What a migration needs: the events, and the accounts for their sequence floors. */
export interface MigrationDeps {
  readonly events: EventUpkeep & Pick<EventLog, 'latestSequence'>;
  readonly directory: Pick<DirectoryStore, 'getAccount'>;
}

/** What one migration request did, and where the next one goes on. */
export interface MigrationStep {
  /** Events moved into their accounts' logs. */
  readonly migrated: number;
  /** Old-layout events left because their delivery is under way: run the migration again later. */
  readonly pending: number;
  /** More index entries remain: send the request again with `cursor`. */
  readonly more: boolean;
  readonly cursor?: string | undefined;
}

/**
 * Moves the organization's old-layout events among the next {@link MIGRATION_CHUNK} index entries (oldest
 * first) into their accounts' logs: each gets the next sequence of its log, above its floor (so after the events published
 * since the upgrade, in `triggered_at` order among themselves) and its old item becomes the id's claim, in
 * one transaction, so a crash or a repeated request moves nothing twice. A pending one is left (a consumer
 * may hold its lease) and counted; the request is idempotent and may be repeated until nothing is pending.
 *
 * @throws ValidationError for a cursor this API did not hand out; BusyError when a log is being published
 *   to too fast to take a sequence (repeat the request with the same cursor)
 */
export async function migrateLegacyEvents(
  deps: MigrationDeps,
  orgId: string,
  cursor?: string,
): Promise<MigrationStep> {
  const { events, directory } = deps;
  const chunk = await events.legacyEvents(orgId, MIGRATION_CHUNK, cursor);
  let migrated = 0;
  let pending = 0;
  for (const event of chunk.events) {
    let result = 'taken';
    for (let tries = 0; result === 'taken' && tries < PUBLISH_SEQUENCE_TRIES; tries++) {
      // Read for each try: retention may raise the floor while the migration runs.
      const account = await directory.getAccount(event.account, { consistent: true });
      const sequenceFloor = account?.orgId === orgId ? (account.sequenceFloor ?? 0) : 0;
      const next = await nextSequence(events, { orgId, account: event.account, sequenceFloor }, true);
      result = await events.moveToLog(event, next);
    }
    if (result === 'taken')
      throw new BusyError(`account: ${event.account} is being published to too fast; repeat.`);
    if (result === 'moved') migrated++;
    if (result === 'pending') pending++;
  }
  return chunk.cursor === undefined
    ? { migrated, pending, more: false }
    : { migrated, pending, more: true, cursor: chunk.cursor };
}
