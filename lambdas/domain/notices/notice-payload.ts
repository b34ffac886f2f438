/**
 * What a notice says to its reader: the payload of its operational webhook, the body of its item in
 * `GET /operational-events` (beside its id and type), and what its catalog type's schema validates. One
 * mapping, so the three never disagree.
 */
import { renderTimestamp } from '#domain/time';
import type { Notice } from './notice';

/**
 * A notice's payload, in the catalog's field names (snake_case, times as `YYYY-MM-DD HH:MM:SS`). Every
 * kind has every field, null where it does not apply (its catalog type says which), so a reader parses
 * one shape.
 */
export interface NoticePayload {
  readonly account: string;
  readonly endpoint_id: string;
  readonly since: string;
  readonly at: string;
  readonly percent: number | null;
  readonly consecutive_failures: number;
  readonly disable_at: string | null;
  readonly reason: string | null;
  readonly last_answer: { readonly status: number; readonly body_excerpt: string } | null;
  readonly event_id: string | null;
  readonly event_type: string | null;
  readonly sequence: number | null;
  readonly expires_at: string | null;
}

/**
 * The notice's payload. The account is shown in full: it is the organization's own, as its events show
 * it. Never a URL (a URL may carry a secret).
 */
export function noticePayload(notice: Notice): NoticePayload {
  return {
    account: notice.account,
    endpoint_id: notice.endpointId,
    since: renderTimestamp(notice.epoch),
    at: renderTimestamp(notice.at),
    percent: notice.percent ?? null,
    consecutive_failures: notice.consecutiveFailures,
    disable_at: notice.disableAt === undefined ? null : renderTimestamp(notice.disableAt),
    reason: notice.reason ?? null,
    last_answer:
      notice.lastAnswer === undefined
        ? null
        : { status: notice.lastAnswer.status, body_excerpt: notice.lastAnswer.bodyExcerpt },
    event_id: notice.eventId ?? null,
    event_type: notice.eventType ?? null,
    sequence: notice.sequence ?? null,
    expires_at: notice.expiresAt === undefined ? null : renderTimestamp(notice.expiresAt),
  };
}
