/**
 * `GET /events?account=…&endpoint_id=…`: the events routed to one endpoint of an account. The default
 * endpoint's are the account's listing (its events not routed elsewhere); an extra endpoint's are read from
 * its own partition of deliveries, a bounded page at a time.
 */
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import type { EndpointStore } from '#domain/endpoints/ports';
import { NotFoundError, ValidationError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type { DirectoryStore, EventListPage, EventPageQuery, EventQueries } from '#domain/ports';
import { listEvents } from './read-events';

/** What listing an endpoint's events reads. */
export interface EndpointEventsDeps {
  readonly events: EventQueries;
  readonly directory: Pick<DirectoryStore, 'getAccount'>;
  readonly endpoints: Pick<EndpointStore, 'listEndpoints'>;
  readonly deliveries: Pick<EndpointDeliveries, 'listDeliveries'>;
}

/**
 * An organization's events, one page of them, as {@link listEvents}; with `filters.endpointId`, only those
 * routed to that endpoint of `filters.account`:
 * - its default endpoint: the account's listing with every filter, less the events routed elsewhere only
 *   (a page may then hold fewer than `perPage`; `hasMore` still says whether more follow);
 * - an extra endpoint: its deliveries' partition, newest event first, `page`/`perPage` as the listing's
 *   (the same depth bound), each event read at its place; no other filter (their index is the listing's).
 *
 * @throws NotFoundError for an account of another organization or none, or an endpoint the account does
 *   not have; ValidationError for another filter beside an extra endpoint
 */
export async function listEventsAt(
  deps: EndpointEventsDeps,
  orgId: string,
  query: EventPageQuery,
): Promise<EventListPage> {
  const { endpointId, ...filters } = query.filters;
  const { account: iban } = filters;
  if (endpointId === undefined || iban === undefined) return listEvents(deps.events, orgId, query);
  const account = await deps.directory.getAccount(iban);
  if (!account || account.orgId !== orgId) throw new NotFoundError(`account: no account ${iban}.`);
  if (account.endpointId === endpointId) {
    const page = await listEvents(deps.events, orgId, { ...query, filters });
    const routedHere = (event: EventRecord) =>
      event.routes === undefined || event.routes.includes(endpointId);
    return { events: page.events.filter(routedHere), hasMore: page.hasMore };
  }
  const extras = await deps.endpoints.listEndpoints(iban, orgId);
  if (!extras.some((endpoint) => endpoint.id === endpointId)) {
    throw new NotFoundError(`endpoint_id: account ${iban} has no endpoint ${endpointId}.`);
  }
  const other = (['type', 'status', 'since', 'until'] as const).find((name) => filters[name] !== undefined);
  if (other !== undefined) {
    throw new ValidationError(
      other === 'status' ? 'webhook_status' : other,
      "cannot be combined with an extra endpoint's endpoint_id: list its events by page, or filter the account's events",
    );
  }
  const offset = (query.page - 1) * query.perPage;
  const page = await deps.deliveries.listDeliveries(orgId, iban, endpointId, {
    offset,
    limit: query.perPage,
  });
  const read = await Promise.all(
    page.deliveries.map(async ({ id, sequence }) => {
      const event = await deps.events.readEvent({ id, orgId, account: iban, sequence });
      // A delivery whose event is gone (retention, erasure; another event at its place since) lists nothing.
      return event?.id === id ? [event] : [];
    }),
  );
  return { events: read.flat(), hasMore: page.hasMore };
}
