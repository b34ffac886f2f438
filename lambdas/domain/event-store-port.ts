/**
 * The event store's ports, by role, along the seams of its DynamoDB adapter: one event read by its id or
 * at its place ({@link EventReads}); the account logs, where a publish claims its id and stores the event
 * at its sequence ({@link EventLog}); each event's delivery state, which the consumer, a redelivery and a
 * reset write (`DeliveryLedger`, in `delivery-ledger-port.ts`); the organization's reads the API answers with
 * ({@link EventQueries}); and the operator's bounded walks over the indexes ({@link EventUpkeep}). A
 * caller depends on the roles it uses; the adapters implement them all. Re-exported by `ports.ts`.
 */

import type {
  ClaimResult,
  IdClaim,
  InsertEventResult,
  LogHead,
  LogPage,
  LogRead,
  LogTail,
  NewEvent,
  Ticket,
} from './account-log';
import type { EventRecord, EventRef, WebhookStatus } from './model';
import type {
  EraseChunk,
  EventListPage,
  EventListRequest,
  LegacyChunk,
  MoveResult,
  RecentAttempts,
  RecoveryChunk,
  RecoveryFilter,
  StatusChunk,
  StatusPage,
} from './queries';

/** How an event store read is made. */
export interface EventReadOptions {
  /** Strongly consistent (twice the read units); for the delivery path and the publish's retries. */
  readonly consistent?: boolean;
}

/** One event, read by its id or at its place: what every role reads first. */
export interface EventReads {
  /** The event of an id through its claim (claim + event, or the old-layout item alone). */
  getEvent(id: string, options?: EventReadOptions): Promise<EventRecord | undefined>;
  /** The event at its place (no claim read): the consumer's read. */
  readEvent(ref: EventRef, options?: EventReadOptions): Promise<EventRecord | undefined>;
}

/**
 * Closing a missing sequence of an account's log: what every reader that passes one writes first (the
 * feed, a replay, the order gate; `domain/log-holes.ts`), and a publish that gives a ticket's sequence
 * back.
 */
export interface LogHoles {
  /**
   * Closes a missing sequence with a void item (no event can be stored at it afterwards); true when it
   * holds a void now (written now or before), false when an event holds it. `ticketedAt`: the time of the
   * ticket that handed the sequence out, given by a publish giving it back, so readers wait below the
   * void as below that ticket's event ({@link LogVoid.ticketedAt}).
   */
  voidSequence(
    orgId: string,
    account: string,
    sequence: number,
    at: number,
    ticketedAt?: number,
  ): Promise<boolean>;
}

/**
 * The account logs: an id claimed once, each event stored at the next sequence of its account's log, and
 * the log read in order (the feed, a replay). Publishing's role.
 */
export interface EventLog extends EventReads, LogHoles {
  /**
   * The highest sequence held in the account's log (an event or a void), 0 when it holds none: one Query
   * of one key.
   */
  latestSequence(orgId: string, account: string, options?: EventReadOptions): Promise<number>;
  /** The id's claim (or its old-layout event); undefined when the id was never claimed. */
  readClaim(id: string): Promise<Exclude<ClaimResult, { claimed: true }> | undefined>;
  /**
   * Claims an id for a new event unless it is claimed: then answers the claim (or the old-layout event).
   * A claim found with this claim's `owner` is this one, written by an earlier try of this very write
   * whose answer was lost: claimed.
   */
  claimId(claim: IdClaim): Promise<ClaimResult>;
  /**
   * Moves the id's claim to `claim` (another sequence, owner or account) if `owner` still holds it;
   * false when another publish took it meanwhile.
   */
  moveClaim(owner: string, claim: IdClaim): Promise<boolean>;
  /** Stores the event at its sequence unless an event (or a void) holds that sequence. */
  insertEvent(event: NewEvent): Promise<InsertEventResult>;
  /**
   * The claims of up to 100 ids (eventually consistent; a claim written a moment ago may be missing), by
   * id: what publishing checks before it spends a ticket on an id that is already published.
   */
  readClaims(ids: readonly string[]): Promise<Map<string, Exclude<ClaimResult, { claimed: true }>>>;

  // The log's numbering: its tail, and the head's tickets while it is hot.

  /**
   * The end of the account's log: its head if it has one, else its highest sequence (an event or a
   * void; 0 when empty). One Query of one key, the same cost as {@link EventLog.latestSequence}.
   */
  readTail(orgId: string, account: string, options?: EventReadOptions): Promise<LogTail>;
  /**
   * Hands out `count` consecutive sequences from the account's log head and stamps it with `at`;
   * undefined when the log has no head. Never refused for contention: concurrent tickets get disjoint
   * ranges.
   */
  takeTicket(orgId: string, account: string, count: number, at: number): Promise<Ticket | undefined>;
  /**
   * {@link EventLog.takeTicket} with sequences all above `above`: the head is created when there is
   * none, and lifted first when it lags below `above`.
   */
  takeTicketAbove(orgId: string, account: string, count: number, at: number, above: number): Promise<Ticket>;
  /**
   * Removes the account's log head if it is still `head` (no ticket since); false when a ticket changed
   * it or it is gone.
   */
  leaveHot(orgId: string, account: string, head: LogHead): Promise<boolean>;
  /**
   * Up to `read.limit` events of the account's log with a sequence above `read.afterSequence`, ascending,
   * with their bodies (consistent), within the read's byte budget, and whether more follow.
   */
  readLog(orgId: string, account: string, read: LogRead): Promise<LogPage>;
}

/** What the API reads across an organization's events: its listing and an endpoint's recent attempts. */
export interface EventQueries extends EventReads {
  /** An organization's events, newest first by `triggered_at`, ties by id (descending). */
  listEvents(request: EventListRequest): Promise<EventListPage>;
  /**
   * The attempts of the account's latest `limit` events triggered since `since`: one index Query (at most
   * the read bound of index entries) and one batch read of those events' attempts only.
   */
  recentAttempts(orgId: string, account: string, since: string, limit: number): Promise<RecentAttempts>;
}

/**
 * The operator's bounded walks over an organization's events: the failed and skipped for a reset or a
 * recovery, the pending for a requeue, an erasure, and the upgrades of the status indexes and of events
 * stored before account logs.
 */
export interface EventUpkeep {
  /**
   * Up to `limit` of the organization's `failed` and `skipped` events, at a cost that depends on
   * `limit` and the read bounds only, and whether more remain. Starting their cycles takes them out of
   * what the next call returns.
   */
  nextFailedOrSkipped(orgId: string, limit: number): Promise<StatusChunk>;
  /**
   * The next step of a walk through the organization's `failed` and `skipped` index entries triggered
   * since `filter.since`, oldest first, from where `cursor` left off: up to `limit` of
   * `filter.account`'s events, examining at most the read bound of index entries and never one that an
   * earlier step examined (an event that cannot start a cycle, or of another account, is passed once).
   *
   * @throws ValidationError for a cursor this store did not hand out
   */
  recoveryChunk(
    orgId: string,
    filter: RecoveryFilter,
    limit: number,
    cursor?: string,
  ): Promise<RecoveryChunk>;
  /**
   * One page of the organization's events (up to 100 examined, newest first) that are in one of
   * `statuses` (triggered at or before `until`, when given), from where `cursor` left off; the cursor of
   * the next page, undefined after the last.
   */
  pageEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    cursor?: string,
    until?: string,
  ): Promise<StatusPage>;
  /**
   * Deletes one bounded chunk of the organization's events of `account` (up to 1,000 events examined)
   * with their id claims, from where `cursor` left off; answers how many were deleted and the cursor of
   * the next chunk, undefined when done.
   */
  eraseAccountEvents(orgId: string, account: string, cursor?: string): Promise<EraseChunk>;
  /**
   * Puts a `failed` or `skipped` event into its sparse status index if it is not there (events recorded
   * before the indexes existed); false when the event is in neither state.
   */
  indexStatus(ref: EventRef): Promise<boolean>;
  /**
   * Up to `limit` of the organization's index entries from `cursor`, oldest first: the events among them
   * stored before account logs (the upgrade's walk).
   */
  legacyEvents(orgId: string, limit: number, cursor?: string): Promise<LegacyChunk>;
  /**
   * Moves an event stored before account logs into its account's log at `sequence`, atomically with its
   * old item becoming the id's claim; see {@link MoveResult}.
   */
  moveToLog(ref: EventRef, sequence: number): Promise<MoveResult>;
}
