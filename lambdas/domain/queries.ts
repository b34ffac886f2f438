/**
 * What the stores are asked and what they answer, beyond the records of `model.ts`: listing and paging
 * requests, bounded chunks with where to go on, and the reads a summary is drawn from. The ports
 * (`ports.ts`, which re-exports these) take and return them.
 */
import type { Account, DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from './model';

/** Filters of an event listing; absent ones do not filter. */
export interface EventFilters {
  /** Normalised IBAN. */
  readonly account?: string | undefined;
  readonly type?: string | undefined;
  readonly status?: WebhookStatus | undefined;
  /** Inclusive ISO lower bound of `triggered_at`. */
  readonly since?: string | undefined;
  /** Inclusive ISO upper bound of `triggered_at`. */
  readonly until?: string | undefined;
  /** Only events routed to this endpoint of `account` (`ep_…`; given with `account` only). */
  readonly endpointId?: string | undefined;
}

/** Which page of an organization's events, with which filters: what `GET /events` asks for. */
export interface EventPageQuery {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
  /** `since` and `until` ISO with milliseconds; `until` names a whole second (the API renders no milliseconds). */
  readonly filters: EventFilters;
}

/** Which part of a listing to return: `limit` entries after skipping `offset`. */
export interface ListWindow {
  /** Number of matching entries to skip. */
  readonly offset: number;
  /** Number of entries to return. */
  readonly limit: number;
}

/** Filters and window of an event listing. */
export interface EventListRequest extends EventFilters, ListWindow {
  readonly orgId: string;
}

/** A page of events plus whether more follow. */
export interface EventListPage {
  readonly events: readonly EventRecord[];
  readonly hasMore: boolean;
}

/** Which page of an organization's accounts, in IBAN order: what `GET /accounts` asks for. */
export interface AccountPageQuery {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
  /** Only accounts whose IBAN sorts after this normalised IBAN (where a deep listing goes on). */
  readonly after?: string | undefined;
}

/** A page of accounts plus whether more follow. */
export interface AccountPage {
  readonly accounts: readonly Account[];
  readonly hasMore: boolean;
}

/** A bounded chunk of events and whether more remain. */
export interface StatusChunk {
  readonly events: readonly EventRef[];
  readonly more: boolean;
}

/** What a recovery redelivers: one account's events triggered since a time. */
export interface RecoveryFilter {
  /** Normalised IBAN. */
  readonly account: string;
  /** Inclusive ISO lower bound of `triggered_at`. */
  readonly since: string;
}

/** The attempts of an account's latest events in a window (what a delivery summary is drawn from). */
export interface RecentAttempts {
  readonly attempts: readonly DeliveryAttempt[];
  /** How many events they belong to. */
  readonly events: number;
  /** False when the window holds events of the account that were not read (the limit or the read bound). */
  readonly complete: boolean;
}

/** One step of a recovery's walk through the status indexes. */
export interface RecoveryChunk {
  readonly events: readonly EventRef[];
  /** Where the next step goes on; undefined when every index entry of the window was examined. */
  readonly cursor?: string | undefined;
}

/** One page of {@link EventUpkeep.pageEventIdsByStatus}. */
export interface StatusPage {
  readonly events: EventRef[];
  readonly cursor?: string | undefined;
}

/** One chunk of an erasure. */
export interface EraseChunk {
  readonly erased: number;
  readonly cursor?: string | undefined;
}

/** What one account deletion request did (`DELETE /admin/accounts/{iban}`, one erasure step with `erase`). */
export interface DeletedAccount {
  readonly iban: string;
  readonly orgId: string;
  /** False when the account was already gone (an erasure going on). */
  readonly deleted: boolean;
  /** Events erased by this request; 0 without `erase`. */
  readonly erasedEvents: number;
  /** Operational notices naming the account erased by this request; 0 without `erase`. */
  readonly erasedNotices: number;
  /** True when events or notices remain to examine: send the request again with `org` and `cursor`. */
  readonly more: boolean;
  readonly cursor?: string;
}

/** One chunk of an organization's events stored before account logs, oldest first. */
export interface LegacyChunk {
  readonly events: readonly EventRef[];
  /** Where the next chunk goes on; undefined after the last. */
  readonly cursor?: string | undefined;
}

/**
 * What moving an old-layout event into its account's log did: `moved`; `taken` (another event holds the
 * sequence, or the event changed meanwhile: try again at the next); `pending` (not moved while its delivery
 * is under way, also when it turned pending during the move); `gone` (moved already, or erased).
 */
export type MoveResult = 'moved' | 'taken' | 'pending' | 'gone';
