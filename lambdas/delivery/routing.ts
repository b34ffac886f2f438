/**
 * Routing: which of its account's endpoints an event goes to, decided once and recorded on the event, so
 * retries, redeliveries and concurrent changes of the endpoints or their subscriptions never make it
 * inconsistent. An account whose events need no decision (one endpoint, subscribed to everything: every
 * account before endpoints) records nothing and costs nothing more.
 *
 * The decision is made when a consumer first handles the event before any attempt: every endpoint of the
 * account (as the batch read it) whose subscription matches the event's type and payload, disabled ones
 * included (their deliveries settle `skipped`, as a disabled endpoint's always did, and are recovered when
 * it is enabled again). It is written only where none is: of two consumers deciding at once (a duplicate
 * message, a subscription changed in between), the first write wins and the other goes by it. An event
 * that had an attempt before its account needed a decision was sent to the default endpoint, and keeps
 * going there alone.
 */
import { needsRouting, routeEvent } from '#domain/endpoints/endpoint';
import type { Account, EventRecord } from '#domain/model';
import type { DeliveryLedger, DeliveryQueue } from '#domain/ports';
import type { DeliveryContext } from './delivery-context';
import type { EndpointHealthStore } from './endpoint-health-port';

/** What routing needs. */
export interface RoutingDeps {
  readonly events: Pick<DeliveryLedger, 'recordRoutes'>;
  /** An account from before endpoint ids gets one for its default endpoint when first routed. */
  readonly health: Pick<EndpointHealthStore, 'endpointId'>;
}

/**
 * An event's routing: the endpoint ids it goes to, whether its account's default endpoint is one, and
 * whether it fans out (it goes to an extra endpoint: then every routed endpoint, the default one
 * included, delivers it through a delivery of its own, see {@link fanOut}).
 */
export interface Routing {
  readonly routes: readonly string[];
  readonly toDefault: boolean;
  readonly fansOut: boolean;
}

/**
 * The event's routing: the one it holds, or the one decided and recorded now; undefined when the event
 * is not routed (it goes to the account's default endpoint, as before endpoints).
 */
export async function routingOf(
  deps: RoutingDeps,
  context: DeliveryContext,
  event: EventRecord,
  account: Account,
): Promise<Routing | undefined> {
  const defaultId = account.endpointId;
  if (event.routes !== undefined) return routing(event, event.routes, defaultId);
  if (!needsRouting(account) || event.webhookRetries > 0) return undefined;
  const [first, ...extras] = await context.endpoints(account);
  if (!first) return undefined;
  const id = first.id ?? (await deps.health.endpointId(account.iban, account.orgId));
  const decided = routeEvent([{ ...first, id }, ...extras], { type: event.type, payload: payloadOf(event) });
  const recorded = await deps.events.recordRoutes(event, decided);
  // Not recorded: attempted meanwhile unrouted (it keeps going to the default endpoint), or gone.
  return recorded === undefined ? undefined : routing(event, recorded, id);
}

/**
 * Whether the event was fanned out: routed to an endpoint other than its account's default one. Its own
 * item then holds the aggregate of its deliveries, not a delivery's state.
 */
export function isFannedOut(event: EventRecord, account: Account): boolean {
  return routing(event, event.routes ?? [], account.endpointId).fansOut;
}

/**
 * Sends one message per routed endpoint (one batch: at most the account's endpoints). Sent on every
 * handling of the event's own message that finds it pending, so a crash between the routing's record and
 * this send loses nothing; the deliveries' leases stop the duplicates.
 */
export async function fanOut(
  deps: { readonly queue: Pick<DeliveryQueue, 'enqueue'> },
  event: EventRecord,
  { routes }: Routing,
): Promise<void> {
  const { id, orgId, account, sequence } = event;
  await deps.queue.enqueue(routes.map((endpointId) => ({ id, orgId, account, sequence, endpointId })));
}

function routing(event: EventRecord, routes: readonly string[], defaultId: string | undefined): Routing {
  const toDefault = defaultId !== undefined && routes.includes(defaultId);
  // An event outside a log (stored before logs) has no place for deliveries: its default endpoint alone.
  const fansOut = event.sequence !== undefined && routes.some((route) => route !== defaultId);
  return { routes, toDefault, fansOut };
}

/** The event's payload as JSON data: what a subscription's filter is matched against. */
function payloadOf(event: EventRecord): unknown {
  try {
    return (JSON.parse(event.body) as { payload?: unknown }).payload;
  } catch {
    // A body is JSON by construction; one that is not matches no filter (and every type list with its type).
    return undefined;
  }
}
