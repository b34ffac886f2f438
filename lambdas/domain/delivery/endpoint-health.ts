/**
 * What Herald knows about an account's webhook endpoint (its state, failures and latency) and the knobs
 * of the circuit breaker that acts on it (`circuit-breaker.ts`). Written only when something changes.
 */

/** `healthy`: deliveries go out freely; `degraded`: failing or slow, bounded; `disabled`: none go out. */
export type EndpointState = 'healthy' | 'degraded' | 'disabled';

/** Every {@link EndpointState}, in documentation order. */
export const ENDPOINT_STATES: readonly EndpointState[] = ['healthy', 'degraded', 'disabled'];

/**
 * What Herald knows about an endpoint. It is written only when something changes (a failure, a slow
 * answer, a recovery, a state change), never on a healthy endpoint's successful delivery.
 */
export interface EndpointHealth {
  readonly state: EndpointState;
  /** ISO: when the endpoint entered its current state (absent for an endpoint that never failed). */
  readonly since?: string | undefined;
  /** Why it is in this state. */
  readonly reason?: string | undefined;
  /** Failed attempts since the last success. */
  readonly consecutiveFailures: number;
  /** ISO: the first failure of the current run of failures. */
  readonly failingSince?: string | undefined;
  /**
   * ISO: when the endpoint last became healthy again, the success that ended a run of failures or slow
   * answers; absent while it never had to. Written only at that change of state: a healthy endpoint's
   * successes write nothing, so this is not the time of its latest delivery.
   */
  readonly recoveredAt?: string | undefined;
  /** ISO: the last failed attempt. */
  readonly lastFailureAt?: string | undefined;
  /** Duration of the last attempt that was written, in milliseconds. */
  readonly recentLatencyMs?: number | undefined;
  /** Epoch ms until which the circuit is open: no attempt goes out before, then one probe at a time. */
  readonly circuitOpenUntil?: number | undefined;
  /** Length of the current open period in seconds; a failed probe doubles it. */
  readonly circuitOpenSeconds?: number | undefined;
}

/** An endpoint nothing has been written about. */
export const HEALTHY: EndpointHealth = { state: 'healthy', consecutiveFailures: 0 };

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
