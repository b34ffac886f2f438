/**
 * The operational log: an organization's notices, each stored once under its deterministic id.
 */
import type { Notice } from './notice';
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
}

/** One page of an organization's notices. */
export interface NoticePage {
  readonly notices: readonly Notice[];
  readonly hasMore: boolean;
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
