/**
 * One delivery message's event: admitted (the event the message names, pending, with attempts left, for
 * an account that is still its organization's and has a URL, routed to its default endpoint), then the
 * attempt's phases (`attempt-phases.ts`: gates → prepare → lease → send → record → settle in order). A
 * fanned-out event's own message ends at admission: it sends one message per routed endpoint, each
 * delivered by `deliver-to-endpoint.ts`.
 *
 * The event goes only to an account of the organization that published it, signed with that
 * organization's tokens, read in this batch's context: an account that another organization holds now
 * gets nothing. The attempt count lives in DynamoDB (SQS receive counts overcount), and the first attempt
 * of an event goes out without a lease: that keeps the common case at one write, and at worst two
 * duplicate messages racing for the very first attempt both send it and both are recorded. Every later
 * attempt, and a first one that was scheduled (brought forward on request), first takes a lease
 * conditioned on the recorded count, so duplicates can neither repeat it nor exceed the cycle.
 */
import type { DeliveryTarget } from '#domain/delivery-message';
import { defaultEndpoint } from '#domain/endpoints/endpoint';
import type { EventRecord } from '#domain/model';
import { type Admitted, attemptDelivery, type Ended } from './attempt-phases';
import { deliverNotice } from './deliver-notice';
import { deliverToEndpoint } from './deliver-to-endpoint';
import { DeliveryContext } from './delivery-context';
import { type DeliveryDeps, readTarget } from './delivery-deps';
import { type DeliveryOutcome, settles, type Thrown } from './delivery-outcome';
import type { HeldUrls } from './held-invocation';
import { announceExhausted } from './operational-notices';
import { afterSettled, isOrdered } from './order';
import { attemptsLeft } from './retry-rule';
import { fanOut, isFannedOut, routingOf } from './routing';

/**
 * Makes the next delivery attempt of an event, if one is due, and records it; throws what the delivery
 * threw (see {@link deliverMessage}).
 *
 * @param context - the batch's accounts and organizations; a single delivery gets its own
 */
export async function deliverEvent(
  deps: DeliveryDeps,
  target: DeliveryTarget,
  receiveCount = 1,
  context = new DeliveryContext(deps.directory, deps.sealer, deps.endpointSecrets, deps.endpointStore),
): Promise<DeliveryOutcome> {
  const delivery = await deliverMessage(deps, target, receiveCount, context);
  if (delivery.kind === 'thrown') throw delivery.error;
  return delivery;
}

/**
 * The phases of one message's delivery (a routed endpoint's message: `deliver-to-endpoint.ts`); a
 * delivery that throws is answered as {@link Thrown}.
 *
 * @param held - for a message a held invocation pulled: the URLs it holds
 */
export async function deliverMessage(
  deps: DeliveryDeps,
  target: DeliveryTarget,
  receiveCount: number,
  context: DeliveryContext,
  held?: HeldUrls,
): Promise<DeliveryOutcome | Thrown> {
  const { at, endpointId } = target;
  if (target.notice !== undefined) return deliverNotice(deps, target.notice, receiveCount, context, held);
  if (endpointId !== undefined && at !== undefined) {
    return deliverToEndpoint(deps, { ...target, at, endpointId }, receiveCount, context, held);
  }
  let admitted: Ended | Admitted;
  let event: EventRecord | undefined;
  try {
    event = await readTarget(deps.events, target);
    if (!event) return { kind: 'dropped', reason: 'event not found' };
    admitted = await admit(deps, event, context);
    if ('outcome' in admitted) return await settleInOrder(deps, context, event, admitted.outcome);
  } catch (error) {
    return { kind: 'thrown', error, left: {} };
  }
  const admittedEvent = event;
  return attemptDelivery(deps, admitted, {
    receiveCount,
    context,
    held,
    routed: false,
    order: deps,
    settle: (outcome, settledThrough) => settleInOrder(deps, context, admittedEvent, outcome, settledThrough),
  });
}

/**
 * Admit: the event must be pending with attempts left, its account still its organization's with a URL,
 * its organization there to sign, and (for an account whose events are routed) routed to the account's
 * endpoint. An event nothing can ever be sent for settles here; a fanned-out one is sent to its
 * endpoints (each ordered one gates its own delivery).
 */
async function admit(
  deps: DeliveryDeps,
  event: EventRecord,
  context: DeliveryContext,
): Promise<Ended | Admitted> {
  if (event.webhookStatus !== 'pending')
    return { outcome: { kind: 'dropped', reason: `event is ${event.webhookStatus}` } };
  const account = await context.account(event.account);
  // A fanned-out event's item counts its deliveries' attempts, each delivery its own cycle's.
  const fannedOut = account !== undefined && isFannedOut(event, account);
  if (!fannedOut && attemptsLeft(event, deps.maxAttempts) === 0) {
    // Announced before the settling: a failed notice write brings the message back while it is pending.
    if (account?.orgId === event.orgId && deps.notices !== undefined) {
      const id = account.endpointId ?? (await deps.health.endpointId(account.iban, account.orgId));
      if (id !== undefined) await announceExhausted(deps.notices, account, id, event, deps.now());
    }
    await deps.events.settlePending(event, 'failed');
    return { outcome: { kind: 'exhausted', event } };
  }
  if (account && account.orgId !== event.orgId) {
    // By construction, not by trust in the account's current owner: the event stays with its organization.
    await deps.events.settlePending(event, 'skipped');
    const reason = 'the account belongs to another organization now; nothing was sent';
    return { outcome: { kind: 'refused', reason } };
  }
  if (!account) {
    await deps.events.settlePending(event, 'skipped');
    return { outcome: { kind: 'skipped', reason: 'account deleted' } };
  }
  const org = await context.organization(event.orgId);
  if (!org) {
    // Nothing can sign the webhook any more: settle rather than leave the event pending forever.
    await deps.events.settlePending(event, 'failed');
    return { outcome: { kind: 'dropped', reason: 'organization not found; event marked failed' } };
  }
  // Decided once, before the default endpoint's URL is looked at: a default endpoint without one is routed
  // nothing, and the account's extra endpoints still get their events. An event the default endpoint's
  // subscription does not want is skipped for it.
  const routing = await routingOf(deps, context, event, account);
  const endpoint = defaultEndpoint(account);
  if (routing?.fansOut) {
    // Fanned out at once: an ordered endpoint gates its own delivery, so no endpoint waits for another.
    await fanOut(deps, event, routing);
    return { outcome: { kind: 'routed', endpoints: routing.routes.length } };
  }
  if (!account.webhookUrl) {
    await deps.events.settlePending(event, 'skipped');
    return { outcome: { kind: 'skipped', reason: 'account has no webhook_url' } };
  }
  if (routing && !routing.toDefault) {
    await deps.events.settlePending(event, 'skipped');
    return {
      outcome: { kind: 'skipped', reason: "the event matches no subscription of the account's endpoint" },
    };
  }
  return { event, endpoint, url: account.webhookUrl, org };
}

/**
 * Settle in order: an ordered account's event that settled (or a message found it so) lets the next one
 * go: the watermark moves, the next waiting event is sent again at once.
 */
async function settleInOrder(
  deps: DeliveryDeps,
  context: DeliveryContext,
  event: EventRecord,
  outcome: DeliveryOutcome,
  settledThrough?: number,
): Promise<DeliveryOutcome> {
  const account = await context.account(event.account);
  const endpoint = account && defaultEndpoint(account);
  if (account?.orgId === event.orgId && endpoint && isOrdered(endpoint, event) && settles(outcome)) {
    await afterSettled(deps, endpoint, { ...event, webhookStatus: 'success' }, settledThrough);
    if (outcome.kind === 'exhausted') return { ...outcome, ordered: true };
  }
  return outcome;
}
