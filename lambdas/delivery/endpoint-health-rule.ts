/**
 * The circuit breaker on an endpoint's health, and its knobs: whether a delivery may go out now, must wait
 * (deferred, no attempt), needs one of the endpoint's few concurrency slots, or must not go out at all
 * (disabled); what an attempt changes about the endpoint; and when failures open the circuit or disable
 * the endpoint. Pure: `endpoint-health.ts` applies what these functions decide through the store of
 * `endpoint-health-port.ts`.
 */
import type { CircuitOpening, EndpointHealth, HealthUpdate } from './endpoint-health-port';

/** The circuit breaker's knobs. */
export interface HealthPolicy {
  /** Consecutive failures that open the circuit. */
  readonly failureThreshold: number;
  /** First open period; it doubles with every failed probe. */
  readonly openBaseSeconds: number;
  /** Longest open period (also the gap between probes of a dead endpoint). */
  readonly openMaxSeconds: number;
  /** A successful answer slower than this marks the endpoint `degraded` (slow). */
  readonly slowMs: number;
  /** Concurrent deliveries a degraded endpoint may hold across all consumers. */
  readonly concurrency: number;
  /** An endpoint failing continuously for this long is disabled. */
  readonly autoDisableAfterMs: number;
}

/** Defaults: open after 5 failures for 30 s doubling to 15 min, 2 slots when degraded, disable after 5 days. */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = {
  failureThreshold: 5,
  openBaseSeconds: 30,
  openMaxSeconds: 15 * 60,
  slowMs: 2_000,
  concurrency: 2,
  autoDisableAfterMs: 5 * 24 * 60 * 60 * 1000,
};

/** The knobs as the stack and `ENDPOINT_HEALTH` give them (all optional; seconds, not ms). */
export interface HealthSettings {
  readonly failureThreshold?: number;
  readonly openBaseSeconds?: number;
  readonly openMaxSeconds?: number;
  readonly slowMs?: number;
  readonly concurrency?: number;
  readonly autoDisableAfterSeconds?: number;
}

const SETTING_RANGES: Readonly<Record<keyof HealthSettings, readonly [number, number]>> = {
  failureThreshold: [1, 100],
  openBaseSeconds: [1, 43_200],
  openMaxSeconds: [1, 43_200],
  slowMs: [100, 60_000],
  concurrency: [1, 50],
  autoDisableAfterSeconds: [1, 30 * 24 * 60 * 60],
};

/**
 * The policy from settings (e.g. the JSON of `ENDPOINT_HEALTH`), defaults for those absent.
 *
 * @throws RangeError naming the setting when one is unknown, not an integer or out of its range
 */
export function healthPolicyFrom(settings: HealthSettings | string | undefined): HealthPolicy {
  const given: Record<string, unknown> =
    typeof settings === 'string' ? (JSON.parse(settings) as Record<string, unknown>) : { ...settings };
  for (const [name, value] of Object.entries(given)) {
    const range = SETTING_RANGES[name as keyof HealthSettings];
    if (!range) throw new RangeError(`endpoint health: unknown setting "${name}"`);
    if (!Number.isInteger(value) || (value as number) < range[0] || (value as number) > range[1]) {
      throw new RangeError(`endpoint health: ${name} must be an integer from ${range[0]} to ${range[1]}`);
    }
  }
  const s = given as HealthSettings;
  const d = DEFAULT_HEALTH_POLICY;
  return {
    failureThreshold: s.failureThreshold ?? d.failureThreshold,
    openBaseSeconds: s.openBaseSeconds ?? d.openBaseSeconds,
    openMaxSeconds: s.openMaxSeconds ?? d.openMaxSeconds,
    slowMs: s.slowMs ?? d.slowMs,
    concurrency: s.concurrency ?? d.concurrency,
    autoDisableAfterMs:
      s.autoDisableAfterSeconds === undefined ? d.autoDisableAfterMs : s.autoDisableAfterSeconds * 1000,
  };
}

/** Whether and how a delivery to the endpoint may go out now. */
export type Gate =
  /** Healthy: no bookkeeping at all (the common path). */
  | { readonly kind: 'send' }
  /** Degraded: take one of `slots` concurrency slots first; `probe` when the circuit is half open. */
  | { readonly kind: 'limited'; readonly slots: number; readonly probe: boolean }
  /** Circuit open: postpone the message, make and record no attempt. */
  | { readonly kind: 'defer'; readonly seconds: number; readonly reason: string }
  /** Disabled: the event settles `skipped`. */
  | { readonly kind: 'disabled'; readonly reason: string };

/**
 * Decides from the endpoint's health whether a delivery may go out at `now` (epoch ms).
 *
 * @param jitter - a number in [0, 1) that spreads deferred messages over a few seconds
 */
export function gate(health: EndpointHealth, now: number, policy: HealthPolicy, jitter = 0): Gate {
  if (health.state === 'disabled') return { kind: 'disabled', reason: health.reason ?? 'endpoint disabled' };
  if (health.state === 'healthy') return { kind: 'send' };
  const openUntil = health.circuitOpenUntil;
  if (openUntil !== undefined && openUntil > now) {
    return {
      kind: 'defer',
      seconds: Math.ceil((openUntil - now) / 1000) + spread(jitter),
      reason: 'circuit open',
    };
  }
  if (openUntil !== undefined) return { kind: 'limited', slots: 1, probe: true };
  return { kind: 'limited', slots: Math.max(1, policy.concurrency), probe: false };
}

/**
 * How long a message waits when all of a degraded endpoint's slots are taken: a few of its recent
 * answers' durations, times the number of times the message was already received (up to 10), so a long
 * backlog for a slow endpoint backs off instead of cycling through the queue ahead of everyone else's
 * messages; at most 15 min.
 */
export function busyDeferSeconds(health: EndpointHealth, jitter = 0, receiveCount = 1): number {
  return slowEndpointDeferSeconds(health.recentLatencyMs ?? 1_000, jitter, receiveCount);
}

/**
 * How long a message to a receiver whose answers take `latencyMs` waits without an attempt: four such
 * answers (2 s to 60 s), times the receive count (up to 10), at most 15 min, plus a 0–4 s spread. The
 * busy deferral of a degraded endpoint and a held invocation's hold of a slow URL share it.
 */
export function slowEndpointDeferSeconds(latencyMs: number, jitter = 0, receiveCount = 1): number {
  const base = Math.min(60, Math.max(2, Math.ceil((4 * latencyMs) / 1000)));
  return Math.min(900, base * Math.min(Math.max(receiveCount, 1), 10)) + spread(jitter);
}

function spread(jitter: number): number {
  return Math.floor(Math.min(Math.max(jitter, 0), 0.999) * 5);
}

/** One attempt's result as health sees it. */
export interface AttemptSignal {
  /** HTTP status, 0 without an answer. */
  readonly status: number;
  readonly latencyMs: number;
  /** ISO time of the attempt. */
  readonly at: string;
  /** Seconds the receiver asked to wait (`Retry-After` on 429/503), if any. */
  readonly retryAfterSeconds?: number | undefined;
}

/**
 * The write an attempt calls for. A fast success on an endpoint known healthy writes nothing, which keeps
 * the healthy path at the event's own write.
 */
export function updateAfterAttempt(
  health: EndpointHealth,
  signal: AttemptSignal,
  policy: HealthPolicy,
): HealthUpdate {
  const { at, latencyMs, status } = signal;
  if (status === 410) return { kind: 'disable', at, reason: 'receiver answered 410 Gone' };
  if (status >= 200 && status <= 299) {
    const slow = latencyMs >= policy.slowMs;
    if (!slow && health.state === 'healthy') return { kind: 'none' };
    return slow
      ? { kind: 'success', at, latencyMs, state: 'degraded', reason: `slow: answered in ${latencyMs} ms` }
      : { kind: 'success', at, latencyMs, state: 'healthy' };
  }
  return { kind: 'failure', at, latencyMs, reason: failureReason(status) };
}

function failureReason(status: number): string {
  return status === 0 ? 'failing: no HTTP answer' : `failing: answered ${status}`;
}

/** A state change that follows from a failure just counted. */
export type Escalation =
  | { readonly kind: 'none' }
  | ({ readonly kind: 'open' } & CircuitOpening)
  | { readonly kind: 'disable'; readonly reason: string };

/**
 * After a failure was counted (`after` is the stored health with it), decides whether the circuit opens,
 * opens again for twice as long (a failed probe: the open period had passed), or the endpoint has failed
 * long enough to be disabled. Failures of attempts that were already under way when the circuit opened
 * change nothing, so a burst of concurrent failures opens it once, for the base period. A `Retry-After`
 * keeps the circuit open at least that long, whatever the count.
 */
export function escalate(
  after: EndpointHealth,
  now: number,
  policy: HealthPolicy,
  retryAfterSeconds?: number,
): Escalation {
  if (after.state === 'disabled') return { kind: 'none' };
  const failingSince = after.failingSince === undefined ? now : Date.parse(after.failingSince);
  if (now - failingSince >= policy.autoDisableAfterMs) {
    return {
      kind: 'disable',
      reason: `failing continuously since ${after.failingSince} (${after.consecutiveFailures} attempts)`,
    };
  }
  const openUntil = after.circuitOpenUntil;
  let period: number | undefined;
  if (openUntil !== undefined && openUntil <= now) {
    period = Math.min(policy.openMaxSeconds, 2 * (after.circuitOpenSeconds ?? policy.openBaseSeconds));
  } else if (openUntil === undefined && after.consecutiveFailures >= policy.failureThreshold) {
    period = Math.min(policy.openMaxSeconds, policy.openBaseSeconds);
  }
  const byCount = period === undefined ? undefined : now + 1000 * period;
  const byReceiver = retryAfterSeconds === undefined ? undefined : now + 1000 * retryAfterSeconds;
  const until = Math.max(byCount ?? 0, byReceiver ?? 0);
  if (until === 0 || until <= (openUntil ?? 0)) return { kind: 'none' };
  const reason =
    byReceiver !== undefined && byReceiver >= (byCount ?? 0)
      ? `circuit open: receiver asked to retry after ${retryAfterSeconds} s`
      : `circuit open: ${after.consecutiveFailures} consecutive failures`;
  return { kind: 'open', until, seconds: Math.ceil((until - now) / 1000), reason };
}
