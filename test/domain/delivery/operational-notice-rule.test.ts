/**
 * The notices an endpoint's health calls for: each level of a failing run once, in order; a disabling;
 * a recovery only of an announced run; nothing for a healthy endpoint without a mark.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointHealth } from '#delivery/endpoint-health-port';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { dueNotices, parseMark } from '#delivery/operational-notice-rule';
import { FAILING_NOTICE_AFTER } from '#domain/notices/notice';

const policy = DEFAULT_HEALTH_POLICY;
const RUN = '2026-11-02T10:00:00.000Z';
const start = Date.parse(RUN);
const window = policy.autoDisableAfterMs;

function failing(failures: number, noticed?: string): EndpointHealth {
  return { state: 'degraded', consecutiveFailures: failures, failingSince: RUN, since: RUN, noticed };
}

describe('operational notices due', () => {
  it('calls for nothing on a healthy endpoint without a mark, nor on a run shorter than the threshold', () => {
    expect(dueNotices({ state: 'healthy', consecutiveFailures: 0 }, start, policy)).toBeUndefined();
    expect(dueNotices(failing(FAILING_NOTICE_AFTER - 1), start, policy)).toBeUndefined();
  });

  it('announces failing at the threshold, once: its mark says so', () => {
    const decision = dueNotices(failing(FAILING_NOTICE_AFTER), start, policy);
    expect(decision).toEqual({ due: [{ kind: 'endpoint_failing', epoch: RUN }], mark: `failing@${RUN}` });
    expect(dueNotices(failing(FAILING_NOTICE_AFTER + 5, decision?.mark), start, policy)).toBeUndefined();
  });

  it('announces the disabling point at 50 % and 90 % of the window, each once', () => {
    const half = start + window / 2;
    expect(dueNotices(failing(9, `failing@${RUN}`), half - 1, policy)).toBeUndefined();
    expect(dueNotices(failing(9, `failing@${RUN}`), half, policy)).toEqual({
      due: [{ kind: 'endpoint_disabling_soon', epoch: RUN, percent: 50 }],
      mark: `soon50@${RUN}`,
    });
    expect(dueNotices(failing(9, `soon50@${RUN}`), half + 1, policy)).toBeUndefined();
    expect(dueNotices(failing(9, `soon50@${RUN}`), start + window * 0.9, policy)?.due).toEqual([
      { kind: 'endpoint_disabling_soon', epoch: RUN, percent: 90 },
    ]);
  });

  it('catches up on levels a crashed consumer left unannounced, in order', () => {
    expect(
      dueNotices(failing(40), start + window * 0.95, policy)?.due.map((d) => d.percent ?? d.kind),
    ).toEqual(['endpoint_failing', 50, 90]);
  });

  it('announces a disabling once per disabling, whatever was announced before', () => {
    const disabled: EndpointHealth = {
      state: 'disabled',
      since: '2026-11-03T00:00:00.000Z',
      reason: 'the receiver answered 410 Gone',
      consecutiveFailures: 1,
      noticed: `failing@${RUN}`,
    };
    const decision = dueNotices(disabled, start, policy);
    expect(decision?.due).toEqual([{ kind: 'endpoint_disabled', epoch: '2026-11-03T00:00:00.000Z' }]);
    expect(dueNotices({ ...disabled, noticed: decision?.mark }, start, policy)).toBeUndefined();
  });

  it('announces no disabling without its time, which no notice could show', () => {
    const disabled: EndpointHealth = {
      state: 'disabled',
      reason: 'disabled by hand',
      consecutiveFailures: 0,
    };
    expect(dueNotices(disabled, start, policy)).toBeUndefined();
    expect(dueNotices({ ...disabled, since: 'not a time' }, start, policy)).toBeUndefined();
  });

  it('announces the recovery of an announced run only, and removes the mark', () => {
    const healthy: EndpointHealth = { state: 'healthy', consecutiveFailures: 0, noticed: `soon50@${RUN}` };
    expect(dueNotices(healthy, start, policy)).toEqual({
      due: [{ kind: 'endpoint_recovered', epoch: RUN }],
      mark: undefined,
    });
    // A slow success ends the run too (the endpoint answered 2xx).
    expect(dueNotices({ ...healthy, state: 'degraded' }, start, policy)?.due).toEqual([
      { kind: 'endpoint_recovered', epoch: RUN },
    ]);
  });

  it('announces an unannounced recovery before a new run’s failing', () => {
    const next = '2026-11-04T00:00:00.000Z';
    const health: EndpointHealth = {
      state: 'degraded',
      consecutiveFailures: FAILING_NOTICE_AFTER,
      failingSince: next,
      noticed: `failing@${RUN}`,
    };
    expect(dueNotices(health, Date.parse(next), policy)).toEqual({
      due: [
        { kind: 'endpoint_recovered', epoch: RUN },
        { kind: 'endpoint_failing', epoch: next },
      ],
      mark: `failing@${next}`,
    });
  });

  it('announces no recovery after an enabling, and keeps a disabling’s mark until a new run', () => {
    const enabled: EndpointHealth = { state: 'healthy', consecutiveFailures: 0, noticed: 'disabled@x' };
    expect(dueNotices(enabled, start, policy)).toBeUndefined();
    expect(dueNotices({ ...failing(FAILING_NOTICE_AFTER), noticed: 'disabled@x' }, start, policy)?.mark).toBe(
      `failing@${RUN}`,
    );
  });

  it('reads only marks it wrote', () => {
    expect(parseMark('failing@x')).toEqual({ level: 'failing', epoch: 'x' });
    expect(parseMark('nonsense@x')).toBeUndefined();
    expect(parseMark('@x')).toBeUndefined();
    expect(parseMark(undefined)).toBeUndefined();
  });
});
