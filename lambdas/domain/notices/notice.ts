/**
 * Operational notices: what Herald tells an organization (and the platform team) about its endpoints'
 * health before a silent stop: an endpoint started failing, is approaching its disable point, was
 * disabled, recovered. Each notice has a deterministic id, derived from what every observer of the same
 * transition agrees on (organization, endpoint, kind, and the epoch of the failing run or of the
 * disabling), so concurrent consumers, retries and restarts store one notice: the log writes a notice
 * only if its id is new.
 */
import { createHash } from 'node:crypto';
import { truncateUtf8 } from '#domain/truncate';

/**
 * The kinds of notice, declared once: each is a type of the catalog (reserved to Herald: no gateway
 * publishes it), the `type` of its webhook and listing. `endpoint_disabling_soon` comes at 50 % and at
 * 90 % of the failing window (`percent`).
 */
export const NOTICE_KINDS = [
  'endpoint_failing',
  'endpoint_disabling_soon',
  'endpoint_disabled',
  'endpoint_recovered',
  'endpoint_enabled',
  'event_attempts_exhausted',
  'client_certificate_expiring',
] as const;

/** A kind of notice. */
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Whether a type name is a notice's: reserved to Herald, never published by a gateway. */
export function isNoticeKind(type: string): type is NoticeKind {
  return (NOTICE_KINDS as readonly string[]).includes(type);
}

/** Consecutive failures after which an endpoint is announced failing (as Svix, on the 4th). */
export const FAILING_NOTICE_AFTER = 4;

/** The shares of the failing window at which an endpoint is announced as approaching its disable point. */
export const DISABLING_SOON_PERCENTS: readonly number[] = [50, 90];

/** Largest excerpt of the last answer a notice carries, in UTF-8 bytes. */
export const NOTICE_ANSWER_BYTES = 512;

/** The receiver's last answer as a notice shows it: status (0: no answer) and a bounded excerpt. */
export interface LastAnswer {
  readonly status: number;
  readonly bodyExcerpt: string;
}

/** One notice. Names the endpoint by account and id, never by URL (a URL may carry a secret). */
export interface Notice {
  /** `ntc_…`, deterministic (see {@link noticeId}). */
  readonly id: string;
  readonly kind: NoticeKind;
  readonly orgId: string;
  /** Normalised IBAN; masked wherever a notice leaves the API as the API masks IBANs. */
  readonly account: string;
  readonly endpointId: string;
  /**
   * ISO: what makes the transition one: the failing run's first failure; when the endpoint was disabled
   * or enabled; when the event's delivery cycle began (exhausted); when fewer than
   * `CERTIFICATE_WARNING_DAYS` days were left of the certificate (its expiry less those days). Part
   * of the id.
   */
  readonly epoch: string;
  /** For `endpoint_disabling_soon`: the share of the failing window reached. */
  readonly percent?: number | undefined;
  /** ISO: when the notice was decided. */
  readonly at: string;
  readonly consecutiveFailures: number;
  /** ISO: when the endpoint will be disabled if it keeps failing (failing and disabling-soon notices). */
  readonly disableAt?: string | undefined;
  /** Why (the health's reason: e.g. the 410 or the failing window for a disabling). */
  readonly reason?: string | undefined;
  readonly lastAnswer?: LastAnswer | undefined;
  /** `event_attempts_exhausted`: the event whose attempts ran out, its type and its account sequence. */
  readonly eventId?: string | undefined;
  readonly eventType?: string | undefined;
  readonly sequence?: number | undefined;
  /** `client_certificate_expiring`: ISO, when the endpoint's client certificate expires. */
  readonly expiresAt?: string | undefined;
}

/** What identifies a transition: the same for every consumer that observes it. */
export interface NoticeKey {
  readonly kind: NoticeKind;
  readonly orgId: string;
  readonly endpointId: string;
  readonly epoch: string;
  readonly percent?: number | undefined;
  /** `event_attempts_exhausted`: the event, so each event's cycle on an endpoint is one notice. */
  readonly eventId?: string | undefined;
}

/** The deterministic id of a transition's notice: `ntc_` and 24 hex digits of a SHA-256 of its key. */
export function noticeId(key: NoticeKey): string {
  const parts = [key.orgId, key.endpointId, key.kind, key.epoch, String(key.percent ?? '')];
  if (key.eventId !== undefined) parts.push(key.eventId);
  return `ntc_${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 24)}`;
}

/** What a notice says beside its key and id. */
export type NoticeFields = Omit<Notice, 'id' | keyof NoticeKey>;

/**
 * The notice of `key`: its id derived from the very key it stores, so no writer can store a notice
 * whose fields name another transition than its id.
 */
export function makeNotice(key: NoticeKey, fields: NoticeFields): Notice {
  return { ...fields, ...key, id: noticeId(key) };
}

/** The last answer of an attempt, its body cut to {@link NOTICE_ANSWER_BYTES}. */
export function lastAnswerOf(status: number, body: string): LastAnswer {
  return { status, bodyExcerpt: truncateUtf8(new TextEncoder().encode(body), NOTICE_ANSWER_BYTES) };
}

/**
 * Where a notice sorts among those of one epoch: failing, then the disabling point's shares, then its
 * end; the others have epochs of their own.
 */
const RANK: Readonly<Record<NoticeKind, number>> = {
  endpoint_failing: 1,
  endpoint_disabling_soon: 2,
  endpoint_disabled: 3,
  endpoint_recovered: 4,
  endpoint_enabled: 5,
  event_attempts_exhausted: 6,
  client_certificate_expiring: 7,
};

/**
 * A notice's place in its organization's log, deterministic like its id: its transition's epoch, then
 * its rank within the run (a share as three digits), then its id. A run's notices sort in the order they
 * happen, and the runs by when they began.
 */
export function noticeSortKey(notice: Pick<Notice, 'epoch' | 'kind' | 'percent' | 'id'>): string {
  const share = String(notice.percent ?? 0).padStart(3, '0');
  return `${notice.epoch}#${RANK[notice.kind]}${share}#${notice.id}`;
}

/**
 * Where a notice is: its organization's log and its sort key ({@link noticeSortKey}), with its id. What the
 * delivery queue's message names, so the consumer reads the notice with one GetItem.
 */
export interface NoticeRef {
  readonly id: string;
  readonly orgId: string;
  readonly sortKey: string;
}
