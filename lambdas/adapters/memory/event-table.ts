/**
 * The in-memory events table every role of the event store works on (as `dynamodb/events/event-table.ts`
 * is the DynamoDB one's): the events by id with each log's sequences, the logs' heads and voids, the id
 * claims, and what the tests
 * and the simulation arrange and inspect. `writes` names every write call in order (one DynamoDB write
 * each, as billed); every `failed`/`skipped` event is in its sparse status index except the ids in
 * `unindexed` (events recorded before the indexes existed, or whose cycles are used up).
 */
import { MAX_INDEX_ENTRIES_READ } from '#config/limits';
import type { EventRecord, EventRef } from '#domain/model';
import type { ClaimResult, IdClaim } from '#domain/ports';
import { EventMap } from './event-map';
import { LogNumbering } from './log-numbering';

/** The table's items and the counters the tests read. */
export class EventTable {
  readonly events = new EventMap();
  /** Id claims by id (the adapter's `EVENT#<id>` items that are not old-layout events). */
  readonly claims = new Map<string, IdClaim>();
  /** What each stored event was given to expire at (`insertEvent`). */
  readonly expiresAt = new Map<string, number | undefined>();
  readonly unindexed = new Set<string>();
  readonly writes: string[] = [];
  /** Ids of the status-index entries recovery walks examined, in order (each read is one entry). */
  readonly recoveryExamined: string[] = [];
  /** How many events each `recentAttempts` call read the attempts of (one batch read each). */
  readonly attemptReads: number[] = [];
  /** The `Limit` of each order-gate read of a log. */
  readonly logEntryReads: number[] = [];
  /**
   * The items one order-gate read of a log holds at most before its page ends, as DynamoDB ends a page at
   * 1 MB processed when items are large (undefined: only the read's limit ends it).
   */
  logEntryPageItems: number | undefined;
  /**
   * The most bytes an event may take as JSON before an attempt appended to it is refused, as DynamoDB
   * refuses an item over 400 KB (undefined: no limit).
   */
  itemBytesLimit: number | undefined;
  /** Index entries one recovery step or summary may examine (the adapter's `MAX_INDEX_ENTRIES_READ`). */
  indexEntriesBound = MAX_INDEX_ENTRIES_READ;
  /**
   * Each routed event's settled endpoints (the adapter's `routes_settled` set) and those of them that
   * failed or were skipped (`routes_failed`, `routes_skipped`).
   */
  readonly routeCounts = new Map<
    string,
    { readonly settled: Set<string>; readonly failed: Set<string>; readonly skipped: Set<string> }
  >();
  /** The logs' heads and voids (`log-numbering.ts`). */
  readonly numbering = new LogNumbering(this.events, this.writes);

  /** What is at an id's key: its claim, or an old-layout event. */
  claimAt(id: string): Exclude<ClaimResult, { claimed: true }> | undefined {
    const claim = this.claims.get(id);
    if (claim) return { claimed: false, existing: claim };
    const legacy = this.events.get(id);
    return legacy && legacy.sequence === undefined ? { claimed: false, legacy } : undefined;
  }

  /** The event at the ref's place: the key is (organization, account, sequence), or the id alone. */
  eventAt(ref: EventRef): EventRecord | undefined {
    // Whatever occupies the place, as the adapter's key read answers, even an event of another id.
    if (ref.sequence !== undefined) return this.events.at(ref.orgId, ref.account, ref.sequence);
    const event = this.events.get(ref.id);
    return event?.sequence === undefined ? event : undefined;
  }

  /** The organization's events as the `by-org` index lists them: newest first, ties by id descending. */
  ofOrg(orgId: string): EventRecord[] {
    return [...this.events.values()]
      .filter((event) => event.orgId === orgId)
      .sort((a, b) =>
        a.triggeredAt === b.triggeredAt
          ? b.id.localeCompare(a.id)
          : b.triggeredAt.localeCompare(a.triggeredAt),
      );
  }
}
