/**
 * The JSON views of an operational notice (`GET /operational-events`, and `GET /operational-events/{id}`
 * with its attempts) and the listing's `Link` header.
 */
import { MAX_LIST_DEPTH } from '#config/limits';
import { noticePayload } from '#domain/notices/notice-payload';
import type { ListedNotice, NoticeDelivery, NoticePage } from '#domain/notices/ports';
import { joinUrl } from '#domain/urls';
import { toDeliveryView } from '#http/events/event-view';
import type { OPERATIONAL_EVENT, OPERATIONAL_EVENT_DETAIL } from '#http/openapi/operational-events';
import { linkHeaderValue, type PageNumbers } from '#http/paging';
import type { Static } from '#http/schema';

/** One notice (the `OperationalEvent` schema). */
export type OperationalEventView = Static<typeof OPERATIONAL_EVENT>;

/** One notice with its attempts (the `OperationalEventDetail` schema). */
export type OperationalEventDetailView = Static<typeof OPERATIONAL_EVENT_DETAIL>;

/**
 * A notice as the API shows it: its id and type, then its payload (what its operational webhook carries),
 * then where its delivery to the operational webhook stands.
 */
export function toOperationalEventView(notice: ListedNotice): OperationalEventView {
  return {
    id: notice.id,
    type: notice.kind,
    ...noticePayload(notice),
    webhook_status: notice.webhookStatus,
    webhook_retries: notice.webhookRetries,
  };
}

/** A notice with every attempt to send it, oldest first. */
export function toOperationalEventDetailView({
  notice,
  delivery,
}: NoticeDelivery): OperationalEventDetailView {
  return {
    ...toOperationalEventView({
      ...notice,
      webhookStatus: delivery.status,
      webhookRetries: delivery.retries,
    }),
    webhook_deliveries: delivery.deliveries.map(toDeliveryView),
  };
}

/**
 * The listing's `Link` header: `first`, `prev` after page 1, `next` while more follow within the depth
 * bound (older notices stay in the log, beyond the listing).
 *
 * @param path - the listing's path, `/operational-events` or the operator's
 */
export function operationalEventsLink(
  baseUrl: string,
  query: PageNumbers,
  page: NoticePage,
  path = '/operational-events',
): string {
  const url = (at: number) =>
    `${joinUrl(baseUrl, path)}?${new URLSearchParams({ page: String(at), per_page: String(query.perPage) })}`;
  return linkHeaderValue({
    first: url(1),
    prev: query.page > 1 ? url(query.page - 1) : undefined,
    next:
      page.hasMore && (query.page + 1) * query.perPage <= MAX_LIST_DEPTH ? url(query.page + 1) : undefined,
  });
}
