import { NotFoundError, ValidationError } from '#domain/errors';
import { isEventId } from '#domain/ids';
import type { EventStore } from '#domain/ports';
import { type EventDetailView, type EventSummaryView, toEventDetail, toEventSummary } from '#http/event-view';
import type { ListQuery } from '#http/list-query';
import { linkHeader } from '#http/pagination';

/** One page of the event list and its RFC 8288 `Link` header. */
export interface EventListResult {
  readonly events: EventSummaryView[];
  readonly link: string;
}

/** An organization's events, newest first, one page of them. */
export async function listEvents(
  store: EventStore,
  orgId: string,
  query: ListQuery,
  baseUrl: string,
): Promise<EventListResult> {
  const { until, ...filters } = query.filters;
  const page = await store.listEvents({
    orgId,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    ...filters,
    // `until` names a whole second; events stored with milliseconds inside it belong to the range.
    until: until === undefined ? undefined : new Date(Date.parse(until) + 999).toISOString(),
  });
  return {
    events: page.events.map((event) => toEventSummary(event, baseUrl)),
    link: linkHeader(baseUrl, '/events', query, page.hasMore),
  };
}

/**
 * One event with all its attempts. Another organization's event answers exactly like an unknown one.
 *
 * @throws ValidationError for a malformed id, NotFoundError otherwise
 */
export async function getEvent(
  store: EventStore,
  orgId: string,
  id: string,
  baseUrl: string,
): Promise<EventDetailView> {
  const event = await store.getEvent(parseEventId(id));
  if (!event || event.orgId !== orgId) throw new NotFoundError(`No event ${id}.`);
  return toEventDetail(event, baseUrl);
}

/** The path parameter `id`, which must be an event id (UUID v4 or v7, lower case). */
export function parseEventId(id: string): string {
  if (!isEventId(id))
    throw new ValidationError('id', 'must be a UUID (version 4 or 7) in lower-case canonical form');
  return id;
}
