/**
 * The operational log: an organization's notices, each stored once under its deterministic id.
 */

import type { LeaseClaim } from '#domain/delivery-ledger-port';
import type { EndpointDelivery } from '#domain/endpoints/deliveries-port';
import type { DeliveryAttempt, WebhookStatus } from '#domain/model';
import type { EraseChunk } from '#domain/queries';
import type { Notice, NoticeRef } from './notice';
import type { SummaryMessage } from './notice-summary';

/** Where notices are kept, per organization. */
export interface OperationalLog {
  /**
   * Stores the notice unless one with its id is stored already (a conditional write): true when this call
   * stored it, false when another consumer, a retry or an earlier run had.
   */
  record(notice: Notice): Promise<boolean>;
  /**
   * The organization's notices, newest transition first, from the `offset`-th on, at most `limit`; `hasMore`
   * when more follow. Reads `offset + limit + 1` notices at most.
   */
  page(orgId: string, offset: number, limit: number): Promise<NoticePage>;
  /**
   * The organization's notice with this id and its delivery, among its `MAX_LIST_DEPTH` newest (what
   * the listing reaches; a notice's key starts with its transition's time, which its id does not tell);
   * undefined when none is.
   */
  find(orgId: string, id: string): Promise<NoticeDelivery | undefined>;
  /**
   * Deletes one bounded chunk of the organization's notices naming `account` (an erased account's), with
   * their delivery and their minute index entry, from where `cursor` left off: examines at most
   * `NOTICE_ERASE_CHUNK` of the organization's notices, whatever account they name; answers how many were
   * deleted and the cursor of the next chunk, undefined once every notice of the organization was examined.
   *
   * @throws ValidationError (`cursor`) for a cursor this log did not hand out
   */
  eraseAccountNotices(orgId: string, account: string, cursor?: string): Promise<EraseChunk>;
}

/** A listed notice, with where its delivery to the operational webhook stands. */
export interface ListedNotice extends Notice {
  readonly webhookStatus: WebhookStatus;
  /** Attempts made to send it. */
  readonly webhookRetries: number;
}

/** One page of an organization's notices. */
export interface NoticePage {
  readonly notices: readonly ListedNotice[];
  readonly hasMore: boolean;
}

/** A notice with the state of its delivery to its organization's operational webhook. */
export interface NoticeDelivery {
  readonly notice: Notice;
  /** Pending with no attempt until its first lease, attempt or settlement. */
  readonly delivery: EndpointDelivery;
}

/**
 * A notice's delivery to its organization's operational webhook, kept on the notice's item with the
 * conditions of an event's own ledger (see `EndpointDeliveries`, whose item shape it shares). One cycle:
 * a notice is never redelivered.
 */
export interface NoticeDeliveries {
  /** The notice and its delivery, read consistently; undefined when there is no such notice. */
  readNotice(ref: NoticeRef): Promise<NoticeDelivery | undefined>;
  /** Claims the next attempt (see `EndpointDeliveries.takeLease`). */
  takeLease(ref: NoticeRef, claim: LeaseClaim): Promise<boolean>;
  /** Appends one attempt, counts it and sets the status (see `EndpointDeliveries.recordAttempt`). */
  recordAttempt(
    ref: NoticeRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery>;
  /** Settles a pending delivery (`skipped`: nowhere to send it; `failed`); false when it was not pending. */
  settlePending(ref: NoticeRef, status: 'skipped' | 'failed'): Promise<boolean>;
}

/**
 * A notice as the minute index files it: enough to count it and to read it whole. `ref` is where the log
 * keeps it, opaque outside the adapter.
 */
export interface NoticeHead {
  readonly orgId: string;
  readonly kind: string;
  readonly at: string;
  readonly id: string;
  readonly ref: string;
}

/** Every organization's notices, filed by the minute of their `at` (see `notice-minute.ts`). */
export interface NoticeIndex {
  /**
   * The notices of `minute` in time order, at most `limit` (0 allowed); `more` when the minute holds
   * others. Reads `limit + 1` index entries at most.
   */
  minute(minute: string, limit: number): Promise<{ heads: NoticeHead[]; more: boolean }>;
  /** The notices of `heads`, whole, in the order given (one that has gone meanwhile is left out). */
  read(heads: readonly NoticeHead[]): Promise<Notice[]>;
}

/**
 * The last minute whose notices the platform team's summary covered: the marker that makes a retried or
 * concurrent run send nothing twice, and a run after an outage catch up.
 */
export interface SummaryCursor {
  /** The last minute covered; undefined before the first summary. */
  last(): Promise<string | undefined>;
  /** Sets it to `to` if it is still `from` (undefined: never set); false when another run moved it. */
  move(from: string | undefined, to: string): Promise<boolean>;
}

/** Where the platform team's summaries go (the stack's notices topic). */
export interface SummaryPublisher {
  publish(message: SummaryMessage): Promise<void>;
}
