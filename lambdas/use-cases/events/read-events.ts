import { NotFoundError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type { EventListPage, EventPageQuery, EventStore } from '#domain/ports';

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
 * @param id - an event id (`parseEventId` checks the path parameter)
 * @throws NotFoundError
 */
export async function getEvent(store: EventStore, orgId: string, id: string): Promise<EventRecord> {
  const event = await store.getEvent(id);
  if (!event || event.orgId !== orgId) throw new NotFoundError(`No event ${id}.`);
  return event;
}
