/**
 * Redelivering one event at one of the endpoints it was routed to (`endpoint_id` on
 * `POST /events/{id}/redeliver` and the operator's twin): only that endpoint's delivery starts a new cycle.
 */
import { MAX_CYCLES } from '#delivery/retry-rule';
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore } from '#domain/ports';
import { getEvent } from './read-events';
import {
  orderAgain,
  type RedeliverEventDeps,
  type RedeliveryResult,
  redeliverEvent,
} from './redeliver-events';

/** What redelivering at one endpoint needs beyond a whole event's redelivery. */
export interface RedeliverEndpointDeps extends RedeliverEventDeps {
  readonly deliveries: Pick<EndpointDeliveries, 'readDelivery' | 'startOwnCycle'>;
  readonly directory: Pick<DirectoryStore, 'restartOrder' | 'getAccount'>;
}

/**
 * Redelivers the organization's event at the endpoint `endpointId` alone. An event not fanned out (sent
 * through its own item to its account's default endpoint) is redelivered as a whole when that endpoint
 * is the one named (`redeliverEvent`). A fanned-out event's delivery there, when settled, starts a new
 * cycle of up to 20 attempts, counted on that delivery (at most `MAX_CYCLES`, its first included): the
 * endpoint leaves the event's aggregate first (the event is `pending` again, unless another endpoint
 * failed for good), then its delivery restarts, and one message for it is queued whatever happened
 * between (a delivery found settled tells the aggregate again). That endpoint's order restarts below the
 * event, as for any new cycle.
 *
 * @throws NotFoundError for an unknown event, one of another organization, or an endpoint the event was
 *   not routed to; ConflictError when that delivery is pending (under way: its own retries go on) or has
 *   used all its cycles
 */
export async function redeliverAtEndpoint(
  deps: RedeliverEndpointDeps,
  orgId: string,
  id: string,
  endpointId: string,
): Promise<RedeliveryResult> {
  const event = await getEvent(deps.events, orgId, id, { consistent: true });
  const account = await deps.directory.getAccount(event.account);
  const defaultId = account?.orgId === orgId ? account.endpointId : undefined;
  const notRouted = new NotFoundError(
    `endpoint_id: event ${id} was not routed to endpoint ${endpointId} (GET /events/${id} lists its endpoints).`,
  );
  if (!fannedOut(event, defaultId)) {
    // Its own item is its default endpoint's delivery.
    if (endpointId !== defaultId || !toDefault(event, defaultId)) throw notRouted;
    return redeliverEvent(deps, orgId, id);
  }
  if (!event.routes.includes(endpointId)) throw notRouted;
  const restarted = await restartAtEndpoint(deps, event, endpointId);
  if (restarted === 'pending') {
    throw new ConflictError(
      `The delivery of event ${id} to endpoint ${endpointId} is under way (pending): its retries go on; see GET /events/${id}.`,
    );
  }
  if (restarted === 'used-up') throw usedUp(event, endpointId);
  // The endpoint's own order restarts: the default endpoint's is the account's.
  await orderAgain(deps, orgId, [event], endpointId === defaultId ? undefined : endpointId);
  return { queued: [id] };
}

/**
 * A new cycle of a fanned-out event's delivery at one routed endpoint alone: nothing when the delivery is
 * pending (or restarts with its event's route cycle) or has used its cycles; else the endpoint leaves the
 * event's aggregate first, then the delivery restarts, and one message for it is queued whatever happened
 * between (a delivery found settled tells the aggregate again). The caller restarts the account's order.
 */
export async function restartAtEndpoint(
  deps: {
    readonly events: Pick<DeliveryLedger, 'reopenRoute'>;
    readonly deliveries: RedeliverEndpointDeps['deliveries'];
    readonly queue: Pick<DeliveryQueue, 'enqueue'>;
  },
  event: EventRecord & { readonly sequence: number },
  endpointId: string,
): Promise<'started' | 'pending' | 'used-up'> {
  const ref = { ...event, endpointId };
  const delivery = await deps.deliveries.readDelivery(ref);
  // A delivery in an earlier route cycle than its event's restarts when its message comes: under way.
  if (delivery.status === 'pending' || (delivery.routeCycle ?? 0) < (event.routeCycle ?? 0)) return 'pending';
  if (delivery.retries > delivery.cycleBase && delivery.cycles >= MAX_CYCLES) return 'used-up';
  await deps.events.reopenRoute(event, endpointId);
  let started = false;
  try {
    started = await deps.deliveries.startOwnCycle(ref);
  } finally {
    await deps.queue.enqueue([ref]);
  }
  return started ? 'started' : 'used-up';
}

/** Whether an event not fanned out went to its account's default endpoint (not routed, or routed there). */
export function toDefault(event: EventRecord, defaultId: string | undefined): boolean {
  return (
    event.routes === undefined ||
    event.sequence === undefined ||
    (defaultId !== undefined && event.routes.includes(defaultId))
  );
}

/**
 * Whether the event was fanned out (routed to an endpoint other than its account's default `defaultId`):
 * then each routed endpoint delivers it through a delivery of its own.
 */
export function fannedOut(
  event: EventRecord,
  defaultId: string | undefined,
): event is EventRecord & { readonly sequence: number; readonly routes: readonly string[] } {
  return event.sequence !== undefined && (event.routes?.some((route) => route !== defaultId) ?? false);
}

/**
 * A redelivery as the API asks for one: at the endpoint `endpointId` alone ({@link redeliverAtEndpoint})
 * or, without one, of the event as a whole (`redeliverEvent`).
 */
export function redeliver(
  deps: RedeliverEndpointDeps,
  orgId: string,
  id: string,
  endpointId: string | undefined,
): Promise<RedeliveryResult> {
  return endpointId === undefined
    ? redeliverEvent(deps, orgId, id)
    : redeliverAtEndpoint(deps, orgId, id, endpointId);
}

function usedUp(event: EventRecord, endpointId: string): ConflictError {
  return new ConflictError(
    `The delivery of event ${event.id} to endpoint ${endpointId} has used all ${MAX_CYCLES} delivery cycles, or changed state meanwhile.`,
  );
}
