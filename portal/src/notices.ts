/**
 * The organization's operational notices as the portal reads them (`GET /operational-events`, newest
 * transition first): their shape, one page of them, and how a notice's last answer reads. Kinds are
 * shown by name, with a plain label for the ones the portal knows, so a kind added later still shows.
 */
import { call } from './api';
import { h } from './dom';

/** One notice (the `OperationalEvent` schema); fields a later kind adds are ignored. */
export interface NoticeView {
  readonly id: string;
  readonly type: string;
  readonly account: string;
  readonly endpoint_id: string;
  readonly since: string;
  readonly at: string;
  readonly percent: number | null;
  readonly consecutive_failures: number;
  readonly disable_at: string | null;
  readonly reason: string | null;
  readonly last_answer: { readonly status: number; readonly body_excerpt: string } | null;
}

/** Largest page of the listing (the API's `per_page` bound). */
export const NOTICES_READ = 100;

/** Plain words for the kinds the portal knows; any other kind shows its name. */
const LABELS: Readonly<Record<string, string>> = {
  endpoint_failing: 'started failing',
  endpoint_disabling_soon: 'approaching its disable point',
  endpoint_disabled: 'disabled',
  endpoint_recovered: 'recovered',
  endpoint_enabled: 'enabled again',
  event_attempts_exhausted: 'an event used up its attempts',
  client_certificate_expiring: 'client certificate expiring',
};

/** What a notice's kind means, in words (its name when the portal does not know it). */
export const kindLabel = (type: string): string => LABELS[type] ?? type;

/** One page of notices and the listing's `Link` header. */
export async function loadNotices(
  page: number,
  perPage: number,
): Promise<{ notices: NoticeView[]; link: string | null }> {
  const query = new URLSearchParams({ page: String(page), per_page: String(perPage) });
  const { data, headers } = await call<NoticeView[]>(`/operational-events?${query}`);
  return { notices: data, link: headers.get('Link') };
}

/**
 * A receiver's answer as text nodes (never parsed: a receiver's body may hold markup): its status, or
 * that none came, and its excerpt quoted.
 */
export function answerLine(answer: NonNullable<NoticeView['last_answer']>): HTMLElement {
  const status = answer.status === 0 ? 'no answer (timeout or connection failure)' : `HTTP ${answer.status}`;
  return h(
    'span',
    { class: 'answer' },
    h('strong', {}, status),
    answer.body_excerpt ? h('q', { class: 'mono wrap' }, answer.body_excerpt) : null,
  );
}
