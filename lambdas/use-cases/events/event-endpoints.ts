/**
 * One event as its view shows it: the event as a whole, and its part at each endpoint it was routed to.
 * An event not fanned out was delivered through its own item to its account's default endpoint; a
 * fanned-out one (routed to an extra endpoint) through a delivery item per routed endpoint, its own item
 * keeping the routing and the aggregate status (`DeliveryLedger.settleRoute`).
 */
import { type EndpointDeliveries, type EndpointDelivery, UNTOUCHED } from '#domain/endpoints/deliveries-port';
import type { EndpointAttempt, EventWithEndpoints } from '#domain/endpoints/event-parts';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import type { DirectoryStore, EventReads } from '#domain/ports';
import { getEvent } from './read-events';

/** What the view of one event reads. */
export interface EventEndpointsDeps {
  readonly events: EventReads;
  readonly deliveries: Pick<EndpointDeliveries, 'readDeliveries'>;
  /** The default endpoint's id of an event that was not routed: its account's. */
  readonly directory: Pick<DirectoryStore, 'getAccount'>;
}

/**
 * One event of the organization with its part at each endpoint it was routed to: a fanned-out event's
 * deliveries are read in one batch (at most an account's endpoints); an event routed to one endpoint
 * reads that batch too, of one key, since only its delivery item tells an extra endpoint's delivery from
 * the default one's (the event does not name its account's default endpoint); an event never routed
 * reads its account, for its default endpoint's id.
 *
 * @throws NotFoundError for an unknown event or one of another organization
 */
export async function getEventWithEndpoints(
  deps: EventEndpointsDeps,
  orgId: string,
  id: string,
): Promise<EventWithEndpoints> {
  const event = await getEvent(deps.events, orgId, id);
  const { routes, sequence } = event;
  if (routes === undefined || sequence === undefined) {
    // An event stored before logs has no deliveries of its own: its default endpoint alone, as before endpoints.
    const account = await deps.directory.getAccount(event.account);
    return ownItem(event, account?.orgId === orgId ? account.endpointId : undefined);
  }
  const [first] = routes;
  if (first === undefined) return { event, endpoints: [], attempts: attributed(event.deliveries, undefined) };
  const found = await deps.deliveries.readDeliveries({ ...event, sequence }, routes);
  // One route and no delivery written: the default endpoint's, on the event's item (an extra endpoint's
  // untouched delivery reads the same there: pending, no attempt).
  if (routes.length === 1 && found.size === 0) return ownItem(event, first);
  return fannedOut(event, routes, found);
}

/** An event delivered through its own item, to the endpoint `endpointId`. */
function ownItem(event: EventRecord, endpointId: string | undefined): EventWithEndpoints {
  return {
    event,
    endpoints: [
      {
        endpointId,
        status: event.webhookStatus,
        retries: event.webhookRetries,
        nextAttemptAt: pendingNext(event.webhookStatus, event.nextAttemptAt),
      },
    ],
    attempts: attributed(event.deliveries, endpointId),
  };
}

/**
 * A fanned-out event: each routed endpoint's part from its delivery (untouched ones pending with no
 * attempt); the event's retries counted live from them, so they equal its attempts while deliveries are
 * still running (the aggregate adds a delivery's attempts when it settles).
 */
function fannedOut(
  event: EventRecord,
  routes: readonly string[],
  found: ReadonlyMap<string, EndpointDelivery>,
): EventWithEndpoints {
  const deliveries = routes.map((endpointId) => ({
    endpointId,
    delivery: found.get(endpointId) ?? UNTOUCHED,
  }));
  // A fanned-out event's own item holds no attempt: it is routed only before its first.
  const attempts = deliveries
    .flatMap(({ endpointId, delivery }) => attributed(delivery.deliveries, endpointId))
    .sort((a, b) => (a.deliveredAt < b.deliveredAt ? -1 : a.deliveredAt > b.deliveredAt ? 1 : 0));
  const endpoints = deliveries.map(({ endpointId, delivery }) => {
    // A delivery settled in an earlier route cycle than its event's (the event was redelivered whole)
    // starts its new cycle when its message comes: it is pending already.
    const restarting = (delivery.routeCycle ?? 0) < (event.routeCycle ?? 0);
    const status = restarting ? 'pending' : delivery.status;
    return {
      endpointId,
      status,
      retries: delivery.retries,
      nextAttemptAt: restarting ? undefined : pendingNext(status, delivery.nextAttemptAt),
    };
  });
  const due = endpoints.flatMap((part) => (part.nextAttemptAt === undefined ? [] : [part.nextAttemptAt]));
  const whole: EventRecord = {
    ...event,
    webhookRetries: attempts.length,
    nextAttemptAt: event.webhookStatus === 'pending' && due.length > 0 ? Math.min(...due) : undefined,
  };
  return { event: whole, endpoints, attempts };
}

function attributed(attempts: readonly DeliveryAttempt[], endpointId: string | undefined): EndpointAttempt[] {
  return attempts.map((attempt) => ({ ...attempt, endpointId }));
}

function pendingNext(status: WebhookStatus, nextAttemptAt: number | undefined): number | undefined {
  return status === 'pending' ? nextAttemptAt : undefined;
}
