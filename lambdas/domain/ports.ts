/**
 * What the use-cases need from the outside world. Adapters in `lambdas/adapters/` implement these with
 * DynamoDB, SQS and HTTP; use-cases only see the interfaces.
 */

import type { ClientTls } from './endpoint-security/endpoint-security';
import type {
  Account,
  AccountTombstone,
  DeliveryAttempt,
  EventRecord,
  EventRef,
  Organization,
  PreviousToken,
  SignatureScheme,
  WebhookStatus,
} from './model';
import type {
  AccountPage,
  AccountPageQuery,
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
import type { PreviousSigningKey, SigningKey } from './signing/signing-keys';

// Who may call: API keys and portal sign-in links.
export * from './access-ports';
export type { ClientTls } from './endpoint-security/endpoint-security';
export type * from './queries';

/**
 * A new event as it is stored at its sequence in its account's log: before any attempt, pending or
 * (without a webhook URL) skipped, and not signed (every attempt signs itself).
 */
export type NewEvent = Pick<EventRecord, 'id' | 'orgId' | 'account' | 'type' | 'triggeredAt' | 'body'> & {
  readonly sequence: number;
  readonly webhookStatus: 'pending' | 'skipped';
  /** Epoch seconds after which DynamoDB may delete the event; undefined keeps it forever. */
  readonly expiresAt?: number | undefined;
};

/**
 * The claim of an event id: the id's uniqueness, and where its event is (or is about to be) stored. Its
 * `owner` is the publish that holds it; another publish may take it over only after `claimedAt` +
 * `CLAIM_LEASE_MS` (a publisher that crashed between the claim and the event leaves an orphan).
 */
export interface IdClaim extends Required<EventRef> {
  /** A random token of the publish holding the claim. */
  readonly owner: string;
  /** Epoch ms of the claim or its last move. */
  readonly claimedAt: number;
  /** Epoch seconds after which DynamoDB may delete the claim with its event; undefined keeps it. */
  readonly expiresAt?: number | undefined;
}

/** What claiming an id found. */
export type ClaimResult =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly existing: IdClaim }
  /** The id is an event stored before sequences (the old layout, which is its own claim). */
  | { readonly claimed: false; readonly legacy: EventRecord };

/** Result of storing an event at its sequence. */
export type InsertEventResult =
  | { readonly created: true; readonly event: EventRecord }
  /** Another event holds the sequence (`occupant`, its id). */
  | { readonly created: false; readonly occupant: string };

/** How an event store read is made. */
export interface EventReadOptions {
  /** Strongly consistent (twice the read units); for the delivery path and the publish's retries. */
  readonly consistent?: boolean;
}

/** Storage of events and their attempts. */
export interface EventStore {
  /** The event of an id through its claim (claim + event, or the old-layout item alone). */
  getEvent(id: string, options?: EventReadOptions): Promise<EventRecord | undefined>;
  /** The event at its place (no claim read): the consumer's read. */
  readEvent(ref: EventRef, options?: EventReadOptions): Promise<EventRecord | undefined>;
  /** The highest sequence stored in the account's log, 0 when it holds none: one Query of one key. */
  latestSequence(orgId: string, account: string, options?: EventReadOptions): Promise<number>;
  /** The id's claim (or its old-layout event); undefined when the id was never claimed. */
  readClaim(id: string): Promise<Exclude<ClaimResult, { claimed: true }> | undefined>;
  /** Claims an id for a new event unless it is claimed: then answers the claim (or the old-layout event). */
  claimId(claim: IdClaim): Promise<ClaimResult>;
  /**
   * Moves the id's claim to `claim` (another sequence, owner or account) if `owner` still holds it;
   * false when another publish took it meanwhile.
   */
  moveClaim(owner: string, claim: IdClaim): Promise<boolean>;
  /** Stores the event at its sequence unless an event holds that sequence. */
  insertEvent(event: NewEvent): Promise<InsertEventResult>;
  /**
   * Up to `limit` events of the account's log with a sequence above `afterSequence`, ascending, with
   * their bodies: one consistent Query, whatever the log holds.
   */
  readLog(orgId: string, account: string, afterSequence: number, limit: number): Promise<EventRecord[]>;
  /** An organization's events, newest first by `triggered_at`, ties by id (descending). */
  listEvents(request: EventListRequest): Promise<EventListPage>;
  /**
   * Claims the next attempt: succeeds only if the event is pending, has exactly `expectedRetries`
   * attempts, no lease live at `nowEpochMs`, and its next attempt is due by `dueByEpochMs`. Returns
   * false when another consumer holds or used the claim.
   */
  takeLease(
    ref: EventRef,
    expectedRetries: number,
    untilEpochMs: number,
    nowEpochMs: number,
    dueByEpochMs: number,
  ): Promise<boolean>;
  /**
   * Appends one attempt, increments `webhook_retries` and sets the status, in one atomic write. A
   * non-success status is only written while the event is still pending (a concurrent success wins);
   * the attempt itself is always recorded. `nextAttemptAt` (epoch ms) is stored for a pending event; the
   * attempt's `signature`, when it sent one, becomes the event's `signature`.
   */
  recordAttempt(
    ref: EventRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord>;
  /**
   * Makes the next attempt of the organization's pending event due at `nowEpochMs` (a consumer then
   * takes a lease for it, as for any scheduled attempt); false when the event is not the organization's,
   * not pending, or a consumer holds its lease (an attempt is under way).
   */
  bringForward(ref: EventRef, orgId: string, nowEpochMs: number): Promise<boolean>;
  /**
   * Marks a pending event of an ordered account that waits for an earlier one: sets its next attempt due
   * now unless one is set (so the consumer leases even its first attempt, and a message sent again when
   * the earlier one settles makes no second attempt); false when it is not pending or a lease is live.
   */
  markWaiting(ref: EventRef, nowEpochMs: number): Promise<boolean>;
  /** Sets the status of a pending event (e.g. `skipped`, `failed`); false when it was not pending. */
  settlePending(ref: EventRef, status: 'skipped' | 'failed'): Promise<boolean>;
  /**
   * Starts a new delivery cycle for a `failed`, `skipped` or `success` event (a replay sends a delivered
   * one again): status `pending`, cycle base = current attempts. False when the event is pending, or has
   * used all its cycles (it then leaves the status indexes, so {@link EventStore.nextFailedOrSkipped} no
   * longer returns it).
   */
  startCycle(ref: EventRef, orgId: string): Promise<boolean>;
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
   * The attempts of the account's latest `limit` events triggered since `since`: one index Query (at most
   * the read bound of index entries) and one batch read of those events' attempts only.
   */
  recentAttempts(orgId: string, account: string, since: string, limit: number): Promise<RecentAttempts>;
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

/** How a directory read is made. */
export interface ReadOptions {
  /**
   * A strongly consistent read (twice the read units): sees every write committed before it. The
   * consumer reads so, so that a changed URL, token or owner applies to the very next attempt.
   */
  readonly consistent?: boolean;
}

/** Organizations, API keys and accounts. */
export interface DirectoryStore {
  getOrganization(id: string, options?: ReadOptions): Promise<Organization | undefined>;
  createOrganization(org: Organization): Promise<void>;
  /**
   * Replaces the webhook token and keeps the replaced one as `previous` (or forgets it when undefined);
   * false when the organization does not exist.
   */
  setWebhookToken(orgId: string, token: string, previous?: PreviousToken): Promise<boolean>;
  /**
   * Replaces the Ed25519 signing key and keeps the replaced one as `previous` (or forgets it when
   * undefined); false when the organization does not exist.
   */
  setSigningKey(orgId: string, key: SigningKey, previous?: PreviousSigningKey): Promise<boolean>;
  /** Sets the signature schemes the organization's webhooks carry; false when it does not exist. */
  setSignatureSchemes(orgId: string, schemes: readonly SignatureScheme[]): Promise<boolean>;
  /** The account; undefined when there is none or it was deleted (a tombstone is never returned). */
  getAccount(iban: string, options?: ReadOptions): Promise<Account | undefined>;
  /**
   * Creates or updates an account, or re-creates the organization's own deleted one. Fails with
   * ConflictError when the IBAN belongs to another organization's account, or still holds another
   * organization's events (its deleted account was not erased), without naming that organization.
   */
  putAccount(account: Account): Promise<Account>;
  /**
   * Deletes the organization's account, leaving `tombstone` in its place (the organization's events stay
   * until erased); the deleted account, or undefined when the organization had no such account.
   */
  deleteAccount(tombstone: AccountTombstone): Promise<Account | undefined>;
  /**
   * Moves an ordered account's watermark from `from` to `to` if it still is `from`; false when another
   * consumer moved it meanwhile (or the account is gone or another organization's).
   */
  advanceSettledThrough(iban: string, orgId: string, from: number, to: number): Promise<boolean>;
  /**
   * Lowers an ordered account's watermark to `to` if it is above (a replay or redelivery of an event at
   * or below it: the events after `to` wait for it again).
   */
  lowerSettledThrough(iban: string, orgId: string, to: number): Promise<void>;
  /**
   * Raises the organization's account's `seq_floor` to `floor` if it is lower (retention deleted the last
   * event of its log); nothing when the account is gone or another organization's.
   */
  raiseSequenceFloor(iban: string, orgId: string, floor: number): Promise<void>;
  /** The tombstone of an account deleted without erasing its events, if there is one. */
  getAccountTombstone(iban: string): Promise<AccountTombstone | undefined>;
  /**
   * Removes the organization's tombstone once the account's events are erased, so the IBAN may be
   * assigned anew; false when the IBAN has no tombstone of that organization.
   */
  removeAccountTombstone(iban: string, orgId: string): Promise<boolean>;
  /**
   * One page of the organization's accounts by IBAN: reads the index entries up to the page's end (at most
   * `MAX_LIST_DEPTH` + 1) and the page's accounts only.
   */
  listAccounts(orgId: string, query: AccountPageQuery): Promise<AccountPage>;
  /** The deployment's event retention in days (the settings item), undefined when events are kept. */
  getEventRetentionDays(): Promise<number | undefined>;
  /** The usage plan of the organizations' keys (the settings item), undefined when there is none. */
  getUsagePlanId(): Promise<string | undefined>;
}

/**
 * The delivery queue. Its message body is the codec in `delivery/message.ts`: the adapter writes it, the
 * batch use-cases read it.
 */
export interface DeliveryQueue {
  /** Enqueues delivery of these events (batched by the adapter); optional delay up to 900 s. */
  enqueue(events: readonly EventRef[], delaySeconds?: number): Promise<void>;
  /** Hides a received message for `seconds` (the visibility-timeout backoff). */
  postpone(receiptHandle: string, seconds: number): Promise<void>;
}

/** A received queue message, as much of it as the consumers need. */
export interface QueueMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  /** SQS's `ApproximateReceiveCount`, this receive included. */
  readonly receiveCount: number;
  /** Epoch ms when the message was first sent (`SentTimestamp`). */
  readonly sentAt: number;
}

export type { EndpointHealthStore, HealthWrite, SlotLease } from './delivery/health-store-port';

/** The receiver's answer to one webhook POST. */
export interface SendResult {
  /** HTTP status, or 0 when no HTTP response arrived. */
  readonly status: number;
  /** Response body cut to the limit, or a description of the network error. */
  readonly body: string;
  readonly elapsedMs: number;
  /** The `Retry-After` header of the answer, as sent. */
  readonly retryAfter?: string | undefined;
}

/** One webhook request. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Mutual TLS for this request only: the endpoint's client certificate and key, and its receiver's CA. */
  readonly tls?: ClientTls | undefined;
}

/** Sends webhook POSTs. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<SendResult>;
}

/** The organizations' keys of the API's usage plan (each organization's own throttle and quota). */
export interface UsageKeys {
  /**
   * Makes the organization's requests metered by the plan (key value = organization id); idempotent.
   * Answers the plan's id, or undefined when the deployment has none to register with (locally).
   */
  register(orgId: string): Promise<string | undefined>;
}
