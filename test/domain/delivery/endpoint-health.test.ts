import { describe, expect, it } from 'vitest';
import { HEALTHY } from '#delivery/endpoint-health-port';
import {
  busyDeferSeconds,
  DEFAULT_HEALTH_POLICY,
  escalate,
  gate,
  healthPolicyFrom,
  slowEndpointDeferSeconds,
  updateAfterAttempt,
} from '#delivery/endpoint-health-rule';
import { parseRetryAfter } from '#delivery/retry-rule';

const NOW = Date.parse('2026-11-20T10:00:00Z');
const policy = DEFAULT_HEALTH_POLICY;

describe('gate', () => {
  it('sends freely when healthy, bounds a degraded endpoint, defers while open, probes after', () => {
    expect(gate(HEALTHY, NOW, policy)).toEqual({ kind: 'send' });
    const degraded = { state: 'degraded', consecutiveFailures: 1 } as const;
    expect(gate(degraded, NOW, policy)).toEqual({ kind: 'limited', slots: 2, probe: false });
    const open = { ...degraded, circuitOpenUntil: NOW + 30_500 };
    expect(gate(open, NOW, policy, 0.5)).toEqual({ kind: 'defer', seconds: 33, reason: 'circuit open' });
    expect(gate(open, NOW + 30_500, policy)).toEqual({ kind: 'limited', slots: 1, probe: true });
    expect(gate({ state: 'disabled', consecutiveFailures: 0, reason: 'gone' }, NOW, policy)).toEqual({
      kind: 'disabled',
      reason: 'gone',
    });
  });
});

describe('updateAfterAttempt and escalate', () => {
  const at = '2026-11-20T10:00:00.000Z';
  it('writes nothing for a healthy endpoint’s fast success, and something for everything else', () => {
    expect(updateAfterAttempt(HEALTHY, { status: 204, latencyMs: 50, at }, policy)).toEqual({ kind: 'none' });
    expect(updateAfterAttempt(HEALTHY, { status: 200, latencyMs: 2_500, at }, policy)).toMatchObject({
      kind: 'success',
      state: 'degraded',
    });
    expect(updateAfterAttempt(HEALTHY, { status: 500, latencyMs: 5, at }, policy)).toMatchObject({
      kind: 'failure',
      reason: 'failing: answered 500',
    });
    expect(updateAfterAttempt(HEALTHY, { status: 410, latencyMs: 5, at }, policy)).toMatchObject({
      kind: 'disable',
    });
  });

  it('opens at the threshold with a doubling period, honours Retry-After, disables after the period', () => {
    const failing = (n: number) => ({ state: 'degraded', consecutiveFailures: n, failingSince: at }) as const;
    expect(escalate(failing(4), NOW, policy)).toEqual({ kind: 'none' });
    expect(escalate(failing(5), NOW, policy)).toMatchObject({ kind: 'open', until: NOW + 30_000 });
    // A burst of concurrent failures opens it once, for the base period.
    expect(escalate(failing(40), NOW, policy)).toMatchObject({ kind: 'open', until: NOW + 30_000 });
    const open = { ...failing(41), circuitOpenUntil: NOW + 10_000, circuitOpenSeconds: 30 };
    expect(escalate(open, NOW, policy)).toEqual({ kind: 'none' });
    // A failed probe (the open period had passed) doubles it, up to the maximum.
    expect(escalate(open, NOW + 10_000, policy)).toMatchObject({ kind: 'open', seconds: 60 });
    expect(escalate({ ...open, circuitOpenSeconds: 600 }, NOW + 10_000, policy)).toMatchObject({
      seconds: 900,
    });
    expect(escalate(failing(1), NOW, policy, 600)).toMatchObject({ kind: 'open', until: NOW + 600_000 });
    expect(escalate(failing(9), NOW + policy.autoDisableAfterMs, policy)).toMatchObject({ kind: 'disable' });
  });
});

describe('busyDeferSeconds', () => {
  it('waits a few latencies, longer the more often the message came back, at most 15 min', () => {
    const slow = { state: 'degraded', consecutiveFailures: 0, recentLatencyMs: 3_000 } as const;
    expect(busyDeferSeconds(slow)).toBe(12);
    expect(busyDeferSeconds(slow, 0, 3)).toBe(36);
    expect(busyDeferSeconds({ ...slow, recentLatencyMs: 60_000 }, 0, 50)).toBe(600);
    expect(busyDeferSeconds({ ...slow, recentLatencyMs: 60_000 }, 0.99, 50)).toBe(604);
  });

  it('is the slow endpoint deferral of the latency it knows (1 s when none), at least 2 s', () => {
    expect(busyDeferSeconds({ state: 'degraded', consecutiveFailures: 0 })).toBe(
      slowEndpointDeferSeconds(1_000),
    );
    expect(slowEndpointDeferSeconds(1_000)).toBe(4);
    expect(slowEndpointDeferSeconds(100)).toBe(2);
    expect(slowEndpointDeferSeconds(2_000, 0, 2)).toBe(16);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates on 429 and 503 only', () => {
    expect(parseRetryAfter(429, '120', NOW)).toBe(120);
    expect(parseRetryAfter(503, new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90);
    expect(parseRetryAfter(500, '120', NOW)).toBeUndefined();
    expect(parseRetryAfter(429, 'soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(429, undefined, NOW)).toBeUndefined();
  });
});

describe('healthPolicyFrom', () => {
  it('fills defaults and names a bad setting', () => {
    expect(healthPolicyFrom(undefined)).toEqual(DEFAULT_HEALTH_POLICY);
    expect(healthPolicyFrom('{"concurrency":4,"autoDisableAfterSeconds":60}')).toMatchObject({
      concurrency: 4,
      autoDisableAfterMs: 60_000,
    });
    expect(() => healthPolicyFrom({ concurrency: 0 })).toThrow(/concurrency must be an integer from 1 to 50/);
    expect(() => healthPolicyFrom('{"speed":1}')).toThrow(/unknown setting "speed"/);
  });
});
