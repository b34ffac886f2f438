/**
 * The endpoint's side of an attempt, the circuit breaker (`endpoint-health-rule.ts`) applied through the
 * health store (`endpoint-health-port.ts`): the gate before an attempt, the concurrency slot a degraded
 * endpoint's attempt takes, and the health write after it. A healthy endpoint's fast success passes
 * through without any read or write of its own (its health comes with the account the batch reads).
 */
import { addressOf, type Endpoint } from '#domain/endpoints/endpoint';
import type { DeliveryAttempt } from '#domain/model';
import type { OperationalLog } from '#domain/notices/ports';
import type { DeliveryContext } from './delivery-context';
import {
  type EndpointHealth,
  type EndpointHealthStore,
  HEALTHY,
  type SlotLease,
} from './endpoint-health-port';
import {
  type AttemptSignal,
  busyDeferSeconds,
  escalate,
  type Gate,
  gate,
  type HealthPolicy,
  updateAfterAttempt,
} from './endpoint-health-rule';
import { announce } from './operational-notices';

/** What the endpoint side needs. */
export interface EndpointDeps {
  readonly health: EndpointHealthStore;
  readonly healthPolicy: HealthPolicy;
  /** How long a slot protects an attempt: longer than one consumer invocation can run. */
  readonly leaseMs: number;
  readonly now: () => number;
  /** [0, 1): spreads deferrals; `Math.random` unless a test fixes it. */
  readonly random?: () => number;
  /** Where the endpoints' operational notices go (`operational-notices.ts`); none: not announced. */
  readonly notices?: OperationalLog | undefined;
}

/** A gate that lets the attempt through: at once (`send`), or with one of its endpoint's slots. */
export type OpenGate = Extract<Gate, { kind: 'send' | 'limited' }>;

/**
 * May the attempt go out: with a slot to release afterwards, or not now (deferred or disabled), or never:
 * the account was deleted, or its IBAN given to another organization, since the batch read it (`gone`).
 */
export type Admission =
  | { readonly kind: 'go'; readonly lease?: SlotLease }
  | { readonly kind: 'defer'; readonly seconds: number; readonly reason: string }
  | { readonly kind: 'disabled'; readonly reason: string }
  | { readonly kind: 'gone'; readonly reason: string };

/** Why a slot was refused by an endpoint that is not the event's organization's any more. */
function gone(endpoint: Endpoint): string {
  return endpoint.extra === undefined
    ? 'the account was deleted or given to another organization meanwhile; nothing was sent'
    : 'the endpoint was removed, or its account deleted, meanwhile; nothing was sent';
}

/** The circuit breaker's gate on the endpoint as the batch read it: no read, no write. */
export function circuitGate(deps: EndpointDeps, endpoint: Endpoint): Gate {
  return gate(endpoint.health ?? HEALTHY, deps.now(), deps.healthPolicy, (deps.random ?? Math.random)());
}

/**
 * Admits an attempt its gate let through: a healthy endpoint's at once; a degraded one's once it holds one
 * of the endpoint's slots. When none is free, the batch's endpoint takes on the health the slot writes
 * returned, and the attempt waits (or, the endpoint disabled meanwhile, never goes).
 *
 * @param receiveCount - how often the message was received: a busy endpoint's deferral grows with it
 */
export async function takeSlot(
  deps: EndpointDeps,
  context: DeliveryContext,
  endpoint: Endpoint,
  decision: OpenGate,
  receiveCount: number,
): Promise<Admission> {
  if (decision.kind === 'send') return { kind: 'go' };
  const health = endpoint.health ?? HEALTHY;
  const random = deps.random ?? Math.random;
  // A random first slot spreads consumers; a second try only when the endpoint allows more than one.
  const first = Math.floor(random() * decision.slots);
  const order = decision.slots > 1 ? [first, (first + 1) % decision.slots] : [first];
  let latest = health;
  for (const slot of order) {
    const now = deps.now();
    const until = now + deps.leaseMs;
    const result = await deps.health.takeSlot(addressOf(endpoint), slot, until, now);
    if (result.health === undefined) return { kind: 'gone', reason: gone(endpoint) };
    latest = result.health;
    if (result.taken) return { kind: 'go', lease: { slot, until } };
    // The write told us the endpoint changed (closed, opened or disabled): decide again on the fresh state.
    if (latest.state !== 'degraded' || latest.circuitOpenUntil !== health.circuitOpenUntil) break;
  }
  context.remember(endpoint, latest);
  const again = gate(latest, deps.now(), deps.healthPolicy, random());
  if (again.kind === 'defer' || again.kind === 'disabled') return again;
  return {
    kind: 'defer',
    seconds: busyDeferSeconds(latest, random(), receiveCount),
    reason: decision.probe ? 'another probe is under way' : 'endpoint concurrency limit reached',
  };
}

/** Frees a slot whose attempt did not happen (e.g. another consumer made it). */
export async function release(
  deps: EndpointDeps,
  endpoint: Endpoint,
  lease: SlotLease | undefined,
): Promise<void> {
  if (lease) await deps.health.releaseSlot(addressOf(endpoint), lease);
}

/** How an attempt changed the endpoint's state, for metrics and logs. */
export type EndpointChange = 'degraded' | 'circuit-opened' | 'recovered' | 'disabled';

/** The endpoint's health after an attempt that wrote it, and the change it made. */
export interface EndpointReport {
  readonly health: EndpointHealth;
  readonly change?: EndpointChange | undefined;
  /** The endpoint's non-personal id, which metrics of a change carry (never the IBAN). */
  readonly endpointId?: string | undefined;
}

/** What an attempt wrote about its endpoint, or why the write failed (the attempt stays recorded). */
export interface EndpointNote {
  readonly endpoint?: EndpointReport;
  readonly endpointError?: unknown;
  /** Why the endpoint's notices could not be stored now (the next consumer to see it stores them). */
  readonly noticeError?: unknown;
}

/**
 * Writes what the attempt showed about the endpoint (nothing for a healthy one's fast success, which
 * only frees its slot), then opens the circuit or disables the endpoint when the failures call for it;
 * the batch's endpoint takes on the health written. Nothing is reported when the endpoint stopped being
 * the organization's while the attempt was under way: its health is not ours to write (the store refused
 * the write), and the attempt's record on the event stands. A write that fails is reported, not thrown:
 * health is advisory.
 *
 * @param retryAfterSeconds - what the receiver asked to wait: the circuit stays open at least that long
 */
export async function reportAttempt(
  deps: EndpointDeps,
  context: DeliveryContext,
  endpoint: Endpoint,
  attempt: DeliveryAttempt,
  retryAfterSeconds: number | undefined,
  lease: SlotLease | undefined,
): Promise<EndpointNote> {
  const signal = {
    status: attempt.responseStatus,
    latencyMs: attempt.responseTimeMs,
    at: attempt.deliveredAt,
    retryAfterSeconds,
  };
  let observed: Observed;
  try {
    observed = await observeAttempt(deps, context, endpoint, signal, lease);
  } catch (endpointError) {
    return { endpointError };
  }
  const { report, health } = observed;
  const note = report === undefined ? {} : { endpoint: report };
  if (health === undefined) return note;
  try {
    await announce(deps, endpoint, health, attempt);
    return note;
  } catch (noticeError) {
    return { ...note, noticeError };
  }
}

/**
 * What an attempt left of its endpoint: the report of what it wrote, and the health its notices are
 * decided from (the one written, or, nothing written, the one the batch read with the account); neither
 * when the endpoint stopped being the organization's meanwhile (nothing of it is ours to announce).
 */
interface Observed {
  readonly report?: EndpointReport;
  readonly health?: EndpointHealth | undefined;
}

async function observeAttempt(
  deps: EndpointDeps,
  context: DeliveryContext,
  endpoint: Endpoint,
  signal: AttemptSignal,
  lease: SlotLease | undefined,
): Promise<Observed> {
  const before = endpoint.health ?? HEALTHY;
  const update = updateAfterAttempt(before, signal, deps.healthPolicy);
  if (update.kind === 'none') {
    await release(deps, endpoint, lease);
    return { health: endpoint.health };
  }
  const at = addressOf(endpoint);
  let after = await deps.health.recordAttempt(at, update, lease);
  if (after && update.kind === 'failure') {
    const step = escalate(after, deps.now(), deps.healthPolicy, signal.retryAfterSeconds);
    if (step.kind === 'open') after = await deps.health.openCircuit(at, step);
    if (step.kind === 'disable') {
      after = await deps.health.disable(at, { at: signal.at, reason: step.reason });
    }
  }
  if (after === undefined) return {};
  context.remember(endpoint, after);
  const change = changeOf(before, after, deps.now());
  // A change is reported by endpoint id; an account from before ids gets one now (once, on a rare path).
  const endpointId =
    change === undefined
      ? endpoint.id
      : (endpoint.id ?? (await deps.health.endpointId(endpoint.iban, endpoint.orgId)));
  return { report: { health: after, change, endpointId }, health: after };
}

function changeOf(before: EndpointHealth, after: EndpointHealth, now: number): EndpointChange | undefined {
  if (after.state === 'disabled') return before.state === 'disabled' ? undefined : 'disabled';
  const openNow = (after.circuitOpenUntil ?? 0) > now;
  if (openNow && after.circuitOpenUntil !== before.circuitOpenUntil) return 'circuit-opened';
  if (after.state === 'healthy') return before.state === 'healthy' ? undefined : 'recovered';
  return before.state === 'healthy' ? 'degraded' : undefined;
}
