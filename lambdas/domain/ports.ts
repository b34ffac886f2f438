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
 * A new event as it is stored: before any attempt, pending or (without a webhook URL) skipped, and not
 * signed (every attempt signs itself).
 */
export type NewEvent = Pick<EventRecord, 'id' | 'orgId' | 'account' | 'type' | 'triggeredAt' | 'body'> & {
  readonly webhookStatus: 'pending' | 'skipped';
  /** Epoch seconds after which DynamoDB may delete the event; undefined keeps it forever. */
  readonly expiresAt?: number | undefined;
};

/** Result of storing an event whose id may already exist. */
export type PutEventResult =
  | { readonly created: true; readonly event: EventRecord }
  | { readonly created: false; readonly existing: EventRecord };

/** Storage of events and their attempts. */
export interface EventStore {
  /** One read of the event with all attempts; `consistent` for the delivery path. */
  getEvent(id: string, options?: { consistent?: boolean }): Promise<EventRecord | undefined>;
  /** Stores the event unless its id exists; then returns the stored one. */
  putEvent(event: NewEvent): Promise<PutEventResult>;
  /** An organization's events, newest first by `triggered_at`, ties by id (descending). */
  listEvents(request: EventListRequest): Promise<EventListPage>;
  /**
   * Claims the next attempt: succeeds only if the event is pending, has exactly `expectedRetries`
   * attempts, no lease live at `nowEpochMs`, and its next attempt is due by `dueByEpochMs`. Returns
   * false when another consumer holds or used the claim.
   */
  takeLease(
    id: string,
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
    id: string,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord>;
  /**
   * Makes the next attempt of the organization's pending event due at `nowEpochMs` (a consumer then
   * takes a lease for it, as for any scheduled attempt); false when the event is not the organization's,
   * not pending, or a consumer holds its lease (an attempt is under way).
   */
  bringForward(id: string, orgId: string, nowEpochMs: number): Promise<boolean>;
  /** Sets the status of a pending event (e.g. `skipped`, `failed`); false when it was not pending. */
  settlePending(id: string, status: 'skipped' | 'failed'): Promise<boolean>;
  /**
   * Starts a new delivery cycle for a `failed` or `skipped` event: status `pending`, cycle base = current
   * attempts. False when the event is in another state, or has used all its cycles (it then leaves the
   * status indexes, so {@link EventStore.nextFailedOrSkipped} no longer returns it).
   */
  startCycle(id: string, orgId: string): Promise<boolean>;
  /**
   * Up to `limit` ids of the organization's `failed` and `skipped` events, at a cost that depends on
   * `limit` and the read bounds only, and whether more remain. Starting their cycles takes them out of
   * what the next call returns.
   */
  nextFailedOrSkipped(orgId: string, limit: number): Promise<StatusChunk>;
  /**
   * The next step of a walk through the organization's `failed` and `skipped` index entries triggered
   * since `filter.since`, oldest first, from where `cursor` left off: up to `limit` ids of
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
   * Deletes one bounded chunk of the organization's events of `account` (up to 1,000 events examined),
   * from where `cursor` left off; answers how many were deleted and the cursor of the next chunk,
   * undefined when done.
   */
  eraseAccountEvents(orgId: string, account: string, cursor?: string): Promise<EraseChunk>;
  /**
   * Puts a `failed` or `skipped` event into its sparse status index if it is not there (events recorded
   * before the indexes existed); false when the event is in neither state.
   */
  indexStatus(id: string): Promise<boolean>;
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
  enqueue(ids: readonly string[], delaySeconds?: number): Promise<void>;
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
