/**
 * The one rule for the next sequence of an account's log, shared by publishing (`store-in-log.ts`) and
 * the upgrade that moves old-layout events into logs (`migrate-events.ts`): above the log's latest event
 * and above the account's `seq_floor`, so a sequence that retention deleted is never given again.
 */
import type { EventLog } from '#domain/ports';

/** An account's log and the floor its sequences continue above. */
export interface LogPlace {
  readonly orgId: string;
  readonly account: string;
  /** The account's `seq_floor` (`Account.sequenceFloor`), 0 when it has none. */
  readonly sequenceFloor: number;
}

/**
 * `max(latest, floor) + 1`. An eventually consistent read can only answer too low, which costs the caller
 * one refused conditional put; its retries read consistently.
 */
export async function nextSequence(
  events: Pick<EventLog, 'latestSequence'>,
  log: LogPlace,
  consistent: boolean,
): Promise<number> {
  const latest = await events.latestSequence(log.orgId, log.account, { consistent });
  return Math.max(latest, log.sequenceFloor) + 1;
}
