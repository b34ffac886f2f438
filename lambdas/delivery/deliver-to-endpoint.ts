/**
 * A fanned-out event's delivery at one routed endpoint (a message `{id, log, seq, ep}`, see
 * `routing.ts`): admitted at that endpoint (the event routed to it, its delivery pending with attempts
 * left, the account still the organization's, the endpoint still there with a URL), then the same
 * phases as an event's own message (`attempt-phases.ts`) with that endpoint's security, health and
 * `Retry-After`, over the delivery's own item, gated by that endpoint's order when it is ordered. When
 * the delivery settles, the event's aggregate is told (`settleRoute`), and an ordered endpoint's next
 * delivery goes on: each endpoint's order waits for its own deliveries only.
 */
import type { DeliveryTarget } from '#domain/delivery-message';
import type { DeliveryRef, EndpointDelivery } from '#domain/endpoints/deliveries-port';
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { Account, EventRecord } from '#domain/model';
import { type Admitted, attemptDelivery, type Ended } from './attempt-phases';
import type { DeliveryContext } from './delivery-context';
import { type DeliveryDeps, readTarget } from './delivery-deps';
import { type DeliveryOutcome, settles, type Thrown } from './delivery-outcome';
import type { HeldUrls } from './held-invocation';
import { announceExhausted } from './operational-notices';
import { afterSettled, isOrdered } from './order';
import { attemptsLeft } from './retry-rule';
import { deliveryView, RoutedLedger, settleRoute } from './routed-ledger';

/** A routed endpoint's message: where its event is, and the endpoint. */
export type RoutedTarget = DeliveryTarget & {
  readonly at: NonNullable<DeliveryTarget['at']>;
  readonly endpointId: string;
};

/** The phases of a routed endpoint's message; a delivery that throws is answered as {@link Thrown}. */
export async function deliverToEndpoint(
  deps: DeliveryDeps,
  target: RoutedTarget,
  receiveCount: number,
  context: DeliveryContext,
  held?: HeldUrls,
): Promise<DeliveryOutcome | Thrown> {
  let admitted: Ended | (Admitted & { readonly ledger: RoutedLedger });
  try {
    admitted = await admitAtEndpoint(deps, target, context);
  } catch (error) {
    return { kind: 'thrown', error, left: {} };
  }
  if ('outcome' in admitted) return admitted.outcome;
  const { ledger } = admitted;
  return attemptDelivery({ ...deps, events: ledger }, admitted, {
    receiveCount,
    context,
    held,
    routed: true,
    order: deps,
    settle: async (outcome, settledThrough) => {
      if (settles(outcome)) await inOrder(deps, context, admitted.event, target.endpointId, settledThrough);
      return outcome;
    },
  });
}

/**
 * Admit at the endpoint: the event routed to it, its delivery pending with attempts left, the account
 * still the organization's, the endpoint still there with a URL, the organization there to sign. A
 * delivery nothing can ever be sent for settles here; one found settled tells the aggregate again.
 */
async function admitAtEndpoint(
  deps: DeliveryDeps,
  target: RoutedTarget,
  context: DeliveryContext,
): Promise<Ended | (Admitted & { readonly ledger: RoutedLedger })> {
  const event = await readTarget(deps.events, target);
  if (!event) return { outcome: { kind: 'dropped', reason: 'event not found' } };
  const { endpointId } = target;
  if (!event.routes?.includes(endpointId) || event.sequence === undefined) {
    return { outcome: { kind: 'dropped', reason: `event not routed to ${endpointId}` } };
  }
  const ref: DeliveryRef = { ...target.at, sequence: event.sequence, endpointId, expiresAt: event.expiresAt };
  const delivery = await currentCycle(deps, event, ref);
  if (delivery.status !== 'pending') {
    await settleRoute(deps.events, ref, delivery);
    await inOrder(deps, context, event, endpointId);
    return { outcome: { kind: 'dropped', reason: `delivery is ${delivery.status}` } };
  }
  const ledger = new RoutedLedger(deps.events, deps.deliveries, event, ref, delivery);
  const view = deliveryView(event, delivery);
  const settle = async (status: 'skipped' | 'failed', outcome: DeliveryOutcome): Promise<Ended> => {
    await ledger.settlePending(view, status);
    await inOrder(deps, context, event, endpointId);
    return { outcome };
  };
  if (attemptsLeft(view, deps.maxAttempts) === 0) {
    // Announced before the settling: a failed notice write brings the message back while it is pending.
    const owner = { orgId: event.orgId, iban: event.account };
    await announceExhausted(deps.notices, owner, endpointId, view, deps.now());
    return settle('failed', { kind: 'exhausted', event: view });
  }
  const account = await context.account(event.account);
  if (account && account.orgId !== event.orgId) {
    const reason = 'the account belongs to another organization now; nothing was sent';
    return settle('skipped', { kind: 'refused', reason });
  }
  const endpoint = account && (await routedEndpoint(context, account, endpointId, event));
  if (!endpoint?.url) {
    const reason = !account ? 'account deleted' : endpoint ? 'endpoint has no URL' : 'endpoint removed';
    return settle('skipped', { kind: 'skipped', reason });
  }
  const org = await context.organization(event.orgId);
  if (!org) {
    // Nothing can sign the webhook any more: settle rather than leave the delivery pending forever.
    return settle('failed', { kind: 'dropped', reason: 'organization not found; delivery marked failed' });
  }
  return { event: view, endpoint, url: endpoint.url, org, ledger };
}

/**
 * The delivery in the event's current route cycle: one left in an earlier cycle (the event was
 * redelivered or replayed since) starts it first, so a settled one goes pending again.
 */
async function currentCycle(
  deps: DeliveryDeps,
  event: EventRecord,
  ref: DeliveryRef,
): Promise<EndpointDelivery> {
  const delivery = await deps.deliveries.readDelivery(ref);
  const cycle = event.routeCycle ?? 0;
  if ((delivery.routeCycle ?? 0) >= cycle) return delivery;
  // Refused: another consumer started it meanwhile; the read after tells its state either way.
  await deps.deliveries.startCycle(ref, cycle, delivery.status !== 'pending');
  return deps.deliveries.readDelivery(ref);
}

/**
 * The account's endpoint the event was routed to as `endpointId`: the default one of an account from
 * before endpoint ids is the routing's first id.
 */
async function routedEndpoint(
  context: DeliveryContext,
  account: Account,
  endpointId: string,
  event: EventRecord,
): Promise<Endpoint | undefined> {
  const endpoints = await context.endpoints(account);
  const found = endpoints.find((endpoint) => endpoint.id === endpointId);
  const first = endpoints[0];
  if (found || first?.id !== undefined || event.routes?.[0] !== endpointId) return found;
  return first;
}

/**
 * Once the delivery settled (or a message found it so), an ordered endpoint's next delivery goes on, as
 * after an event's own settlement (`settledThrough`: the watermark its gate left).
 */
async function inOrder(
  deps: DeliveryDeps,
  context: DeliveryContext,
  event: EventRecord,
  endpointId: string,
  settledThrough?: number,
): Promise<void> {
  const account = await context.account(event.account);
  if (account?.orgId !== event.orgId) return;
  const endpoint = await routedEndpoint(context, account, endpointId, event);
  if (endpoint && isOrdered(endpoint, event)) {
    await afterSettled(deps, endpoint, { ...event, webhookStatus: 'success' }, settledThrough);
  }
}
