/**
 * Endpoint health as it is stored on the account item: `wh_*` attributes, all absent for an endpoint
 * nothing was ever written about (healthy). Read with the account, so the consumer pays no extra read.
 */
import {
  ENDPOINT_STATES,
  type EndpointHealth,
  type EndpointState,
  HEALTHY,
} from '#delivery/endpoint-health-port';

/** Attribute names of the health fields on the account item. */
export const HEALTH_ATTR = {
  state: 'wh_state',
  since: 'wh_since',
  reason: 'wh_reason',
  failures: 'wh_failures',
  failingSince: 'wh_failing_since',
  recoveredAt: 'wh_recovered_at',
  /** Written before `wh_recovered_at`, with the same meaning; read while items still hold it. */
  formerRecoveredAt: 'wh_last_success',
  lastFailure: 'wh_last_failure',
  latency: 'wh_latency',
  openUntil: 'wh_open_until',
  openSeconds: 'wh_open_seconds',
  /** The last operational notice announced (see `operational-notice-rule.ts`). */
  noticed: 'wh_noticed',
  /** The expiry of the client certificate announced expiring. */
  certificateNoticed: 'wh_cert_noticed',
} as const;

/** Attribute of concurrency slot `slot` (its value: epoch ms when the lease runs out). */
export function slotAttr(slot: number): string {
  return `wh_slot_${slot}`;
}

/** The health stored on an account item. */
export function toEndpointHealth(item: Record<string, unknown>): EndpointHealth {
  const state = item[HEALTH_ATTR.state];
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : undefined);
  const number = (name: string) => (item[name] === undefined ? undefined : Number(item[name]));
  return {
    ...HEALTHY,
    state: ENDPOINT_STATES.includes(state as EndpointState) ? (state as EndpointState) : 'healthy',
    since: text(HEALTH_ATTR.since),
    reason: text(HEALTH_ATTR.reason),
    consecutiveFailures: number(HEALTH_ATTR.failures) ?? 0,
    failingSince: text(HEALTH_ATTR.failingSince),
    recoveredAt: text(HEALTH_ATTR.recoveredAt) ?? text(HEALTH_ATTR.formerRecoveredAt),
    lastFailureAt: text(HEALTH_ATTR.lastFailure),
    recentLatencyMs: number(HEALTH_ATTR.latency),
    circuitOpenUntil: number(HEALTH_ATTR.openUntil),
    circuitOpenSeconds: number(HEALTH_ATTR.openSeconds),
    noticed: text(HEALTH_ATTR.noticed),
    certificateNoticed: text(HEALTH_ATTR.certificateNoticed),
  };
}
