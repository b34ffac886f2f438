/**
 * One delivery message's event, in phases, each returning its result: admit (the event the message
 * names, pending, with attempts left, for an account that is still its organization's and has a URL) →
 * gates (due, the account's order, a URL held here, the circuit) → prepare (keys, body, TLS) → lease (the
 * endpoint's slot, then the event's) → send → record (the attempt, then the endpoint's health) → settle
 * in order (an ordered account's next event goes on). A phase that ends the delivery answers its outcome.
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
import type { EndpointSecretStore, PayloadEncrypter } from '#domain/endpoint-security/ports';
import { defaultEndpoint, type Endpoint } from '#domain/endpoints/endpoint';
import type { EventRecord, Organization } from '#domain/model';
import type { DeliveryLedger, EndpointStore, EventReads } from '#domain/ports';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { DeliveryContext, type DeliveryDirectory } from './delivery-context';
import { attemptOutcome, type DeliveryOutcome, settles, type Thrown } from './delivery-outcome';
import {
  type Admission,
  circuitGate,
  type EndpointDeps,
  type OpenGate,
  release,
  takeSlot,
} from './endpoint-health';
import type { HeldUrls } from './held-invocation';
import { afterSettled, isOrdered, type OrderDeps, passGate } from './order';
import type { ErroredHandling } from './postponement-rule';
import { record } from './record-attempt';
import { afterAttempt, attemptsLeft, dueBy, secondsUntilDue } from './retry-rule';
import { routingOf } from './routing';
import { prepareRequest, type SendDeps, type SentAttempt, sendPrepared } from './webhook-request';

/** What delivering one event needs. */
export interface DeliveryDeps extends EndpointDeps, SendDeps, OrderDeps {
  readonly events: DeliveryLedger;
  /** Read through each batch's {@link DeliveryContext}, never cached across batches. */
  readonly directory: DeliveryDirectory;
  /**
   * Opens the organizations' Ed25519 keys (`v1a`; without a sealer, webhooks carry the HMAC signatures
   * only) and the endpoints' TLS client keys.
   */
  readonly sealer?: SecretSealer | undefined;
  /** The endpoints' material (payload key, TLS client certificate and key, CA), read per batch when named. */
  readonly endpointSecrets?: Pick<EndpointSecretStore, 'getSecrets'>;
  /** Encrypts bodies for endpoints with a payload key. */
  readonly encrypter?: PayloadEncrypter;
  /** The accounts' extra endpoints, read per batch for an account that counts some (its routing). */
  readonly endpointStore?: Pick<EndpointStore, 'listEndpoints'>;
  readonly schedule: readonly number[];
  readonly maxAttempts: number;
}

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
 * The phases of one message's delivery; a delivery that throws is answered as {@link Thrown}.
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
  let left: ErroredHandling = {};
  // This path delivers to an account's default endpoint: a message for a routed endpoint is not for it.
  if (target.endpointId !== undefined) return { kind: 'dropped', reason: 'message for a routed endpoint' };
  try {
    // Admit.
    const event = await readTarget(deps.events, target);
    if (!event) return { kind: 'dropped', reason: 'event not found' };
    const admitted = await admit(deps, event, context);
    if ('outcome' in admitted) return await settleInOrder(deps, context, event, admitted.outcome);
    const { endpoint, url, org } = admitted;
    // Gates.
    const gates = await passGates(deps, event, endpoint, url, receiveCount, held);
    const { settledThrough } = gates;
    if ('outcome' in gates) return await settleInOrder(deps, context, event, gates.outcome, settledThrough);
    // Prepare, once the circuit lets the attempt through and before any slot or lease is taken: a
    // deferred message does no KMS or crypto work. A step that fails is the attempt's failure, recorded.
    const prepared = await prepareRequest(context, deps, event, endpoint, org, deps.now());
    // Lease: the endpoint's slot before the event's lease (a deferred message must find the event
    // unleased later); the event's for every attempt but an unscheduled first one.
    const admission = await takeSlot(deps, context, endpoint, gates.circuit, receiveCount);
    if (admission.kind !== 'go') {
      return await settleInOrder(deps, context, event, await closed(deps, event, admission), settledThrough);
    }
    if (event.webhookRetries > 0 || event.nextAttemptAt !== undefined || gates.leased) {
      const at = deps.now();
      // Noted before the request: one that throws may have taken the lease all the same.
      left = { leaseUntil: at + deps.leaseMs };
      const claim = {
        expectedRetries: event.webhookRetries,
        untilEpochMs: at + deps.leaseMs,
        nowEpochMs: at,
        dueByEpochMs: dueBy(at),
      };
      if (!(await deps.events.takeLease(event, claim))) {
        await release(deps, endpoint, admission.lease);
        return await settleInOrder(deps, context, event, DUPLICATE, settledThrough);
      }
    }
    // Send.
    if (prepared.ready) left = { ...left, unrecordedSendAt: deps.now() };
    const sent = await sendPrepared(deps, event, url, org, prepared);
    // Record: the attempt first (the attempt count must never miss a real send), then the endpoint's
    // health, even when recording throws (it releases the slot).
    const after = afterAttempt(event, answerOf(sent), deps, deps.now());
    const { recorded, note, next } = await record(
      deps,
      context,
      event,
      endpoint,
      sent,
      after,
      admission.lease,
    );
    // Recorded: the event's own state (settled, or its next attempt due later) now keeps a quick return
    // from sending again.
    left = { leaseUntil: left.leaseUntil };
    // Settle in order.
    const outcome = attemptOutcome(next, recorded, sent, note, endpoint);
    return await settleInOrder(deps, context, event, outcome, settledThrough);
  } catch (error) {
    return { kind: 'thrown', error, left };
  }
}

/**
 * The event a message names, read consistently: where the message says it is (no claim read), or, for
 * an `{"id"}` message, through its id. Undefined when it is gone, including when another event holds the
 * message's place.
 */
export async function readTarget(
  events: EventReads,
  target: DeliveryTarget,
): Promise<EventRecord | undefined> {
  if (target.at === undefined) return events.getEvent(target.id, { consistent: true });
  const event = await events.readEvent(target.at, { consistent: true });
  // An event never moves within or between logs, so another id at (log, seq) means the message outlived
  // its event (the account was erased and re-created, its log starting again at 1). The message is stale:
  // treated as gone (the consumer drops it, the reconciler counts it settled), never as the other event,
  // whose own message delivers it.
  return event?.id === target.id ? event : undefined;
}

/** A phase that ends the delivery: its outcome. */
type Ended = { readonly outcome: DeliveryOutcome };

/**
 * Admit: the event must be pending with attempts left, its account still its organization's with a URL,
 * its organization there to sign, and (for an account whose events are routed) routed to the account's
 * endpoint. An event nothing can ever be sent for settles here.
 */
async function admit(
  deps: DeliveryDeps,
  event: EventRecord,
  context: DeliveryContext,
): Promise<Ended | { readonly endpoint: Endpoint; readonly url: string; readonly org: Organization }> {
  if (event.webhookStatus !== 'pending')
    return { outcome: { kind: 'dropped', reason: `event is ${event.webhookStatus}` } };
  if (attemptsLeft(event, deps.maxAttempts) === 0) {
    await deps.events.settlePending(event, 'failed');
    return { outcome: { kind: 'exhausted', event } };
  }
  const account = await context.account(event.account);
  if (account && account.orgId !== event.orgId) {
    // By construction, not by trust in the account's current owner: the event stays with its organization.
    await deps.events.settlePending(event, 'skipped');
    const reason = 'the account belongs to another organization now; nothing was sent';
    return { outcome: { kind: 'refused', reason } };
  }
  if (!account?.webhookUrl) {
    await deps.events.settlePending(event, 'skipped');
    return {
      outcome: { kind: 'skipped', reason: account ? 'account has no webhook_url' : 'account deleted' },
    };
  }
  const org = await context.organization(event.orgId);
  if (!org) {
    // Nothing can sign the webhook any more: settle rather than leave the event pending forever.
    await deps.events.settlePending(event, 'failed');
    return { outcome: { kind: 'dropped', reason: 'organization not found; event marked failed' } };
  }
  // Decided once: an event the default endpoint's subscription does not want is skipped for it.
  const routing = await routingOf(deps, context, event, account);
  if (routing && !routing.toDefault) {
    await deps.events.settlePending(event, 'skipped');
    return {
      outcome: { kind: 'skipped', reason: "the event matches no subscription of the account's endpoint" },
    };
  }
  return { endpoint: defaultEndpoint(account), url: account.webhookUrl, org };
}

/**
 * Gates: the attempt must be due, its turn in an ordered account (`leased`: it then takes the event's
 * lease; `settledThrough`: the watermark the gate left), its URL not held by this invocation, its circuit
 * not open. None writes but the order's mark of a waiting event.
 */
async function passGates(
  deps: DeliveryDeps,
  event: EventRecord,
  endpoint: Endpoint,
  url: string,
  receiveCount: number,
  held: HeldUrls | undefined,
): Promise<
  { readonly settledThrough?: number | undefined } & (Ended | { circuit: OpenGate; leased: boolean })
> {
  const notDueFor = secondsUntilDue(event.nextAttemptAt, deps.now());
  if (notDueFor !== undefined) return { outcome: { kind: 'not-due', retryAfterSeconds: notDueFor } };
  // Ordered: not before every earlier event of the account is settled (before the slot: a waiting event
  // holds none).
  const turn = isOrdered(endpoint, event)
    ? await passGate(deps, endpoint, event, receiveCount)
    : { go: true as const, leased: false, settledThrough: undefined };
  if (!turn.go) return { outcome: { kind: 'waiting', retryAfterSeconds: turn.seconds, reason: turn.reason } };
  const { settledThrough } = turn;
  // A pulled message whose receiver is already not answering here waits, like a busy endpoint's: no attempt.
  const hold = held?.holdFor(url, receiveCount);
  if (hold !== undefined) {
    const reason = 'endpoint has a slow attempt in flight here';
    return { settledThrough, outcome: { kind: 'deferred', retryAfterSeconds: hold.seconds, reason, hold } };
  }
  // The endpoint is this batch's fresh read, so a `disabled` verdict needs no confirming read.
  const circuit = circuitGate(deps, endpoint);
  if (circuit.kind === 'defer' || circuit.kind === 'disabled') {
    return { settledThrough, outcome: await closed(deps, event, circuit) };
  }
  return { settledThrough, circuit, leased: turn.leased };
}

/** An attempt its endpoint refuses: deferred, or (the endpoint disabled or gone) the event skipped. */
async function closed(
  deps: DeliveryDeps,
  event: EventRecord,
  refusal: Exclude<Admission, { kind: 'go' }>,
): Promise<DeliveryOutcome> {
  if (refusal.kind === 'defer') {
    return { kind: 'deferred', retryAfterSeconds: refusal.seconds, reason: refusal.reason };
  }
  await deps.events.settlePending(event, 'skipped');
  const reason = refusal.kind === 'disabled' ? `endpoint disabled: ${refusal.reason}` : refusal.reason;
  return { kind: 'skipped', reason };
}

/** Another consumer holds the event's lease, or made the attempt this message was for. */
const DUPLICATE = { kind: 'duplicate', reason: 'another consumer holds or made this attempt' } as const;

/** What the receiver answered, as the retry schedule reads it. */
function answerOf(sent: SentAttempt) {
  return { status: sent.attempt.responseStatus, retryAfter: sent.retryAfter };
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
