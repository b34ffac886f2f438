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
 * The catch-up feed of an account: up to `limit` of its events with a sequence above `afterSequence`,
 * ascending, with their bodies: one consistent Query of the account's log, whatever it holds. The log
 * is the organization's own (keyed by organization and account), so another organization's IBAN, like an
 * unknown one, has an empty feed.
 *
 * @param iban - a normalised IBAN (`parseIban` checks the path parameter)
 */
export function readFeed(
  store: EventStore,
  orgId: string,
  iban: string,
  afterSequence: number,
  limit: number,
): Promise<EventRecord[]> {
  return store.readLog(orgId, iban, afterSequence, limit);
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
