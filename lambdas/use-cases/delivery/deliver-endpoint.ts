/**
 * The endpoint side of a delivery: the circuit breaker's gate before an attempt, the concurrency slot of
 * a degraded endpoint, and the health write after it. A healthy endpoint's fast success passes through
 * without any read or write of its own (its health comes with the account the consumer reads anyway).
 */

import type { EndpointHealthStore, SlotLease } from '#delivery/endpoint-health-port';
import { type EndpointHealth, HEALTHY } from '#delivery/endpoint-health-port';
import {
  busyDeferSeconds,
  escalate,
  gate,
  type HealthPolicy,
  updateAfterAttempt,
} from '#delivery/endpoint-health-rule';
import type { Account } from '#domain/model';

/** What the endpoint side needs. */
export interface EndpointDeps {
  readonly health: EndpointHealthStore;
  readonly healthPolicy: HealthPolicy;
  /** How long a slot protects an attempt: longer than one consumer invocation can run. */
  readonly leaseMs: number;
  /** Keeps the batch's account in step with the health a write returned (its delivery context). */
  readonly remember?: (iban: string, health: EndpointHealth) => void;
  readonly now: () => number;
  /** [0, 1): spreads deferrals; `Math.random` unless a test fixes it. */
  readonly random?: () => number;
}

/**
 * May the attempt go out: with a slot to release afterwards, or not now (deferred or disabled), or never:
 * the account was deleted, or its IBAN given to another organization, since the batch read it (`gone`).
 */
export type Admission =
  | { readonly kind: 'go'; readonly lease?: SlotLease }
  | { readonly kind: 'defer'; readonly seconds: number; readonly reason: string }
  | { readonly kind: 'disabled'; readonly reason: string }
  | { readonly kind: 'gone'; readonly reason: string };

/** Why a slot was refused by an account that is not the event's organization's any more. */
const GONE = 'the account was deleted or given to another organization meanwhile; nothing was sent';

/**
 * Applies the circuit breaker's gate to an account's endpoint; takes a slot when it is degraded.
 *
 * @param receiveCount - how often the message was received: a busy endpoint's deferral grows with it
 * @param beforeSlot - runs once the gate lets the attempt through, before any slot is taken (the
 *   attempt's crypto work: a deferred message does none, and its failure holds no slot)
 */
export async function admit(
  deps: EndpointDeps,
  account: Account,
  receiveCount = 1,
  beforeSlot?: () => Promise<void>,
): Promise<Admission> {
  const health = account.webhookHealth ?? HEALTHY;
  const random = deps.random ?? Math.random;
  const decision = gate(health, deps.now(), deps.healthPolicy, random());
  if (decision.kind === 'send') {
    await beforeSlot?.();
    return { kind: 'go' };
  }
  if (decision.kind !== 'limited') return decision;
  await beforeSlot?.();
  // A random first slot spreads consumers; a second try only when the endpoint allows more than one.
  const first = Math.floor(random() * decision.slots);
  const order = decision.slots > 1 ? [first, (first + 1) % decision.slots] : [first];
  let latest = health;
  for (const slot of order) {
    const now = deps.now();
    const until = now + deps.leaseMs;
    const result = await deps.health.takeSlot(account.iban, account.orgId, slot, until, now);
    if (result.health === undefined) return { kind: 'gone', reason: GONE };
    latest = result.health;
    if (result.taken) return { kind: 'go', lease: { slot, until } };
    // The write told us the endpoint changed (closed, opened or disabled): decide again on the fresh state.
    if (latest.state !== 'degraded' || latest.circuitOpenUntil !== health.circuitOpenUntil) break;
  }
  deps.remember?.(account.iban, latest);
  const again = gate(latest, deps.now(), deps.healthPolicy, random());
  if (again.kind === 'defer' || again.kind === 'disabled') return again;
  return {
    kind: 'defer',
    seconds: busyDeferSeconds(latest, random(), receiveCount),
    reason: decision.probe ? 'another probe is under way' : 'endpoint concurrency limit reached',
  };
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

/** Frees a slot whose attempt did not happen (e.g. another consumer made it). */
export async function release(
  deps: EndpointDeps,
  account: Account,
  lease: SlotLease | undefined,
): Promise<void> {
  if (lease) await deps.health.releaseSlot(account.iban, account.orgId, lease);
}

/**
 * Writes what the attempt showed about the endpoint (nothing for a healthy one's fast success), then
 * opens the circuit or disables the endpoint when the failures call for it. Nothing is reported when the
 * account stopped being the organization's while the attempt was under way: its health is not ours to
 * write (the store refused the write), and the attempt's record on the event stands.
 */
export async function observeAttempt(
  deps: EndpointDeps,
  account: Account,
  signal: { status: number; latencyMs: number; at: string; retryAfterSeconds?: number | undefined },
  lease: SlotLease | undefined,
): Promise<EndpointReport | undefined> {
  const before = account.webhookHealth ?? HEALTHY;
  const update = updateAfterAttempt(before, signal, deps.healthPolicy);
  if (update.kind === 'none') {
    await release(deps, account, lease);
    return undefined;
  }
  const { iban, orgId } = account;
  let after = await deps.health.recordAttempt(iban, orgId, update, lease);
  if (after && update.kind === 'failure') {
    const step = escalate(after, deps.now(), deps.healthPolicy, signal.retryAfterSeconds);
    if (step.kind === 'open') {
      after = await deps.health.openCircuit(iban, orgId, step.until, step.seconds, step.reason);
    }
    if (step.kind === 'disable') after = await deps.health.disable(iban, orgId, signal.at, step.reason);
  }
  if (after === undefined) return undefined;
  deps.remember?.(iban, after);
  const change = changeOf(before, after, deps.now());
  // A change is reported by endpoint id; an account from before ids gets one now (once, on a rare path).
  const endpointId =
    change === undefined
      ? account.endpointId
      : (account.endpointId ?? (await deps.health.endpointId(iban, orgId)));
  return { health: after, change, endpointId };
}

function changeOf(before: EndpointHealth, after: EndpointHealth, now: number): EndpointChange | undefined {
  if (after.state === 'disabled') return before.state === 'disabled' ? undefined : 'disabled';
  const openNow = (after.circuitOpenUntil ?? 0) > now;
  if (openNow && after.circuitOpenUntil !== before.circuitOpenUntil) return 'circuit-opened';
  if (after.state === 'healthy') return before.state === 'healthy' ? undefined : 'recovered';
  return before.state === 'healthy' ? 'degraded' : undefined;
}
