import { NotFoundError, ValidationError } from '#domain/errors';
import { isEventId } from '#domain/ids';
import type { EventRecord } from '#domain/model';
import type { EventFilters, EventListPage, EventStore } from '#domain/ports';

/** Which page of an organization's events, with which filters. */
export interface EventPageQuery {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
  /** `until` names a whole second here (the API's rendering has no milliseconds). */
  readonly filters: EventFilters;
}

/** An organization's events, newest first, one page of them, and whether more follow. */
export function listEvents(store: EventStore, orgId: string, query: EventPageQuery): Promise<EventListPage> {
  const { until, ...filters } = query.filters;
  return store.listEvents({
    orgId,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    ...filters,
    // `until` names a whole second; events stored with milliseconds inside it belong to the range.
    until: until === undefined ? undefined : new Date(Date.parse(until) + 999).toISOString(),
  });
}

/**
 * One event with all its attempts. Another organization's event answers exactly like an unknown one.
 *
 * @throws ValidationError for a malformed id, NotFoundError otherwise
 */
export async function getEvent(store: EventStore, orgId: string, id: string): Promise<EventRecord> {
  const event = await store.getEvent(parseEventId(id));
  if (!event || event.orgId !== orgId) throw new NotFoundError(`No event ${id}.`);
  return event;
}

/** The path parameter `id`, which must be an event id (UUID v4 or v7, lower case). */
export function parseEventId(id: string): string {
  if (!isEventId(id))
    throw new ValidationError('id', 'must be a UUID (version 4 or 7) in lower-case canonical form');
  return id;
}
