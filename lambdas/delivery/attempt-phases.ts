/**
 * The phases of one delivery after its admission, the same for an event's own message and for a routed
 * endpoint's: gates (due, the endpoint's order, a URL held here, the circuit) → prepare (keys, body, TLS)
 * → lease (the endpoint's slot, then the delivery's) → send → record (the attempt, then the endpoint's
 * health) → settle (in order). A phase that ends the delivery answers its outcome; the delivery's state
 * is read and written through `deps.events`, the event's ledger or one bound to a routed endpoint's
 * delivery.
 */
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { EventRecord, Organization } from '#domain/model';
import type { DeliveryLedger } from '#domain/ports';
import type { DeliveryContext } from './delivery-context';
import type { DeliveryDeps } from './delivery-deps';
import { attemptOutcome, type DeliveryOutcome, type Thrown } from './delivery-outcome';
import { type Admission, circuitGate, type OpenGate, release, takeSlot } from './endpoint-health';
import type { HeldUrls } from './held-invocation';
import { announce } from './operational-notices';
import { isOrdered, type OrderDeps, passGate } from './order';
import type { ErroredHandling } from './postponement-rule';
import { record } from './record-attempt';
import { afterAttempt, dueBy, secondsUntilDue } from './retry-rule';
import { prepareRequest, type SentAttempt, sendPrepared } from './webhook-request';

/**
 * A delivery's state as the phases write it: the event's own (its item), or a routed endpoint's delivery
 * (bound to it, whatever `ref` says), each answering the delivery's state as an event.
 */
export type AttemptLedger = Pick<DeliveryLedger, 'takeLease' | 'recordAttempt' | 'settlePending'>;

/** What the phases need: a delivery's, with the ledger of the delivery the message is for. */
export type AttemptDeps = Omit<DeliveryDeps, 'events'> & { readonly events: AttemptLedger };

/** What admission found: the delivery's state (as an event), where it goes, and who signs it. */
export interface Admitted {
  readonly event: EventRecord;
  readonly endpoint: Endpoint;
  readonly url: string;
  readonly org: Organization;
}

/** How one message's delivery runs. */
export interface AttemptRun {
  readonly receiveCount: number;
  readonly context: DeliveryContext;
  /** For a message a held invocation pulled: the URLs it holds. */
  readonly held?: HeldUrls | undefined;
  /**
   * A routed endpoint's delivery: every attempt takes the delivery's lease (the fan-out may send its
   * message more than once).
   */
  readonly routed: boolean;
  /** The order gate's reads and writes (an ordered endpoint's delivery waits for its turn there). */
  readonly order?: OrderDeps | undefined;
  /** Settles an outcome in order (`settledThrough`: the watermark the gate left). */
  readonly settle: (outcome: DeliveryOutcome, settledThrough?: number) => Promise<DeliveryOutcome>;
}

/** A phase that ends the delivery: its outcome. */
export type Ended = { readonly outcome: DeliveryOutcome };

/** The phases from the gates on; a delivery that throws is answered as {@link Thrown}. */
export async function attemptDelivery(
  deps: AttemptDeps,
  admitted: Admitted,
  run: AttemptRun,
): Promise<DeliveryOutcome | Thrown> {
  let left: ErroredHandling = {};
  const { event, endpoint, url, org } = admitted;
  const { context, receiveCount } = run;
  try {
    // Gates.
    const gates = await passGates(deps, admitted, run);
    const { settledThrough } = gates;
    if ('outcome' in gates) return await run.settle(gates.outcome, settledThrough);
    // Prepare, once the circuit lets the attempt through and before any slot or lease is taken: a
    // deferred message does no KMS or crypto work. A step that fails is the attempt's failure, recorded.
    const prepared = await prepareRequest(context, deps, event, endpoint, org, deps.now());
    // Lease: the endpoint's slot before the delivery's lease (a deferred message must find the delivery
    // unleased later); the delivery's for every attempt but an unscheduled first one of an event's own.
    const admission = await takeSlot(deps, context, endpoint, gates.circuit, receiveCount);
    if (admission.kind !== 'go') {
      return await run.settle(await closed(deps, event, admission), settledThrough);
    }
    const leased = event.webhookRetries > 0 || event.nextAttemptAt !== undefined || gates.leased;
    if (leased || run.routed) {
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
        return await run.settle(DUPLICATE, settledThrough);
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
    // Recorded: the delivery's own state (settled, or its next attempt due later) now keeps a quick
    // return from sending again.
    left = { leaseUntil: left.leaseUntil };
    // Settle in order.
    return await run.settle(attemptOutcome(next, recorded, sent, note, endpoint), settledThrough);
  } catch (error) {
    return { kind: 'thrown', error, left };
  }
}

/**
 * Gates: the attempt must be due, its turn in an ordered account (`leased`: it then takes the event's
 * lease; `settledThrough`: the watermark the gate left), its URL not held by this invocation, its circuit
 * not open. None writes but the order's mark of a waiting event.
 */
async function passGates(
  deps: AttemptDeps,
  { event, endpoint, url }: Admitted,
  { receiveCount, held, order, routed }: AttemptRun,
): Promise<
  { readonly settledThrough?: number | undefined } & (Ended | { circuit: OpenGate; leased: boolean })
> {
  const notDueFor = secondsUntilDue(event.nextAttemptAt, deps.now());
  if (notDueFor !== undefined) return { outcome: { kind: 'not-due', retryAfterSeconds: notDueFor } };
  // Ordered: not before every earlier event of the account is settled (before the slot: a waiting event
  // holds none).
  const turn =
    order && isOrdered(endpoint, event)
      ? await passGate(order, endpoint, event, receiveCount, routed)
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
  // A disabling whose notice a crash left unstored is announced by the next message that finds it (a
  // thrown write brings the message back, before anything is settled).
  if (circuit.kind === 'disabled' && endpoint.health) await announce(deps, endpoint, endpoint.health);
  if (circuit.kind === 'defer' || circuit.kind === 'disabled') {
    return { settledThrough, outcome: await closed(deps, event, circuit) };
  }
  return { settledThrough, circuit, leased: turn.leased };
}

/** An attempt its endpoint refuses: deferred, or (the endpoint disabled or gone) the delivery skipped. */
async function closed(
  deps: AttemptDeps,
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

/** Another consumer holds the delivery's lease, or made the attempt this message was for. */
const DUPLICATE = { kind: 'duplicate', reason: 'another consumer holds or made this attempt' } as const;

/** What the receiver answered, as the retry schedule reads it. */
function answerOf(sent: SentAttempt) {
  return { status: sent.attempt.responseStatus, retryAfter: sent.retryAfter };
}
