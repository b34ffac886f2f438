/** When a held consumer invocation pulls more messages, when it stops, and when a pulled message waits. */
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import {
  answerReleasesHold,
  type HeldState,
  heldEndpointDeferSeconds,
  holdReleasable,
  nextPullStep,
  pullSettings,
  RELEASE_MARGIN_MS,
} from '#delivery/held-invocation-rule';

const settings = pullSettings(PULL_WHEN_HELD, 10_000);
/** The hold's rule with a 1 s hold, whatever `PULL_WHEN_HELD` configures. */
const hold = { heldAfterMs: 1_000, attemptTimeoutMs: 10_000, slowMs: DEFAULT_HEALTH_POLICY.slowMs };
const NOW = Date.parse('2026-11-20T10:00:00.000Z');

function state(overrides: Partial<HeldState> = {}): HeldState {
  return {
    now: NOW,
    batchSettledAt: undefined,
    busy: 1,
    attemptStarts: [NOW - 1_000],
    pulled: 0,
    remainingMs: 100_000,
    ...overrides,
  };
}

describe('nextPullStep', () => {
  it('pulls a receive’s worth once every message handled is an attempt slower than the threshold', () => {
    expect(nextPullStep(state(), settings)).toEqual({ kind: 'pull', max: 10 });
    expect(
      nextPullStep(state({ busy: 3, attemptStarts: [NOW - 400, NOW - 300, NOW - 5_000] }), settings),
    ).toEqual({ kind: 'pull', max: 10 });
  });

  it('waits while an attempt is younger than the threshold or a quick message is still being handled', () => {
    expect(nextPullStep(state({ attemptStarts: [NOW - 299] }), settings)).toEqual({ kind: 'wait' });
    expect(nextPullStep(state({ attemptStarts: [] }), settings)).toEqual({ kind: 'wait' });
    // Seven messages, one slow attempt: six are reading or recording, more than half a receive's worth.
    expect(nextPullStep(state({ busy: 7 }), settings)).toEqual({ kind: 'wait' });
    // Quick deliveries only (a healthy batch) never pull, however few.
    expect(nextPullStep(state({ busy: 1, attemptStarts: [NOW - 20] }), settings)).toEqual({ kind: 'wait' });
  });

  it('tops the quick work up to a receive’s worth once at most half of one is left', () => {
    expect(nextPullStep(state({ busy: 6 }), settings)).toEqual({ kind: 'pull', max: 5 });
    expect(nextPullStep(state({ busy: 2 }), settings)).toEqual({ kind: 'pull', max: 9 });
  });

  it('stops once nothing holds it, at the cap, and near the deadline', () => {
    expect(nextPullStep(state({ batchSettledAt: NOW, busy: 0, attemptStarts: [] }), settings)).toEqual({
      kind: 'stop',
      reason: 'nothing holds it',
    });
    expect(nextPullStep(state({ pulled: 1_000 }), settings)).toEqual({ kind: 'stop', reason: 'cap reached' });
    expect(nextPullStep(state({ pulled: 995 }), settings)).toEqual({ kind: 'pull', max: 5 });
    // A receive's wait (1 s), one attempt timeout (10 s) and the 5 s margin must still fit.
    expect(nextPullStep(state({ remainingMs: 15_999 }), settings)).toEqual({
      kind: 'stop',
      reason: 'deadline',
    });
    expect(nextPullStep(state({ remainingMs: 16_000 }), settings).kind).toBe('pull');
  });

  it('keeps pulling after the batch settled while pulled messages are handled, for one attempt timeout', () => {
    // The batch's attempts are done, a pulled one still hangs: the invocation cannot return before it ends.
    expect(nextPullStep(state({ batchSettledAt: NOW }), settings)).toEqual({ kind: 'pull', max: 10 });
    expect(nextPullStep(state({ batchSettledAt: NOW, attemptStarts: [NOW - 50] }), settings)).toEqual({
      kind: 'wait',
    });
    // A pulled message still being read (no attempt yet) holds it too.
    expect(nextPullStep(state({ batchSettledAt: NOW, attemptStarts: [] }), settings)).toEqual({
      kind: 'wait',
    });
    expect(nextPullStep(state({ batchSettledAt: NOW - 9_999 }), settings).kind).toBe('pull');
    expect(nextPullStep(state({ batchSettledAt: NOW - 10_000 }), settings)).toEqual({
      kind: 'stop',
      reason: 'a timeout past its batch',
    });
  });

  it('pulls no more than leaves room for the attempts in flight cap', () => {
    const many = (n: number) => Array.from({ length: n }, () => NOW - 1_000);
    expect(nextPullStep(state({ busy: 100, attemptStarts: many(100) }), settings)).toEqual({ kind: 'wait' });
    expect(nextPullStep(state({ busy: 96, attemptStarts: many(96) }), settings)).toEqual({
      kind: 'pull',
      max: 4,
    });
    // Quick messages may still become attempts: 94 slow ones and 2 quick leave room for 4.
    expect(nextPullStep(state({ busy: 96, attemptStarts: many(94) }), settings)).toEqual({
      kind: 'pull',
      max: 4,
    });
  });
});

describe('heldEndpointDeferSeconds', () => {
  it('does not hold a URL that answered here since its oldest slow attempt started (busy, not hanging)', () => {
    expect(
      heldEndpointDeferSeconds({ starts: [NOW - 3_000], lastAnswerAt: NOW - 100 }, NOW, 1, hold),
    ).toBeUndefined();
    expect(
      heldEndpointDeferSeconds({ starts: [NOW - 3_000], lastAnswerAt: NOW - 3_000 }, NOW, 1, hold),
    ).toBeUndefined();
    // Its last answer came before the attempt that is still open.
    expect(heldEndpointDeferSeconds({ starts: [NOW - 3_000], lastAnswerAt: NOW - 3_001 }, NOW, 1, hold)).toBe(
      9,
    );
  });

  it('is undefined unless the URL has had an attempt in flight here for a second', () => {
    expect(heldEndpointDeferSeconds({ starts: [] }, NOW, 1, hold)).toBeUndefined();
    // Slow enough to pull, not yet enough to hold the URL: a loaded machine's healthy answer.
    expect(heldEndpointDeferSeconds({ starts: [NOW - 999] }, NOW, 1, hold)).toBeUndefined();
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 1, hold)).toBe(11);
  });

  it('waits until the oldest held attempt must have timed out, plus two seconds, growing with receives', () => {
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_500, NOW - 9_500] }, NOW, 1, hold)).toBe(3);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 20_000] }, NOW, 1, hold)).toBe(2);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 3, hold)).toBe(33);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 50, hold)).toBe(110);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 1, hold, 0.99)).toBe(15);
  });

  it('holds a URL whose last answer here took the circuit breaker’s slowMs or more, for a busy deferral', () => {
    // Answered after 3 s, another attempt in flight: four such answers, 12 s, growing with receives.
    const slow = { starts: [NOW - 500], lastAnswerAt: NOW - 100, lastAnswerMs: 3_000 };
    expect(heldEndpointDeferSeconds(slow, NOW, 1, hold)).toBe(12);
    expect(heldEndpointDeferSeconds(slow, NOW, 2, hold)).toBe(24);
    expect(heldEndpointDeferSeconds(slow, NOW, 1, hold, 0.99)).toBe(16);
    // Nothing in flight any more: still slow, still held (its slots are for the event source's messages).
    expect(
      heldEndpointDeferSeconds({ starts: [], lastAnswerAt: NOW, lastAnswerMs: 2_000 }, NOW, 1, hold),
    ).toBe(8);
    // Just under slowMs: a busy receiver that still answers is not held.
    const busy = { starts: [NOW - 1_500], lastAnswerAt: NOW - 100, lastAnswerMs: 1_999 };
    expect(heldEndpointDeferSeconds(busy, NOW, 1, hold)).toBeUndefined();
    expect(heldEndpointDeferSeconds(busy, NOW, 1, { ...hold, slowMs: 1_500 })).toBe(8);
  });

  it('stays within SQS’s 15 min delay', () => {
    const long = { heldAfterMs: 1_000, attemptTimeoutMs: 600_000, slowMs: 2_000 };
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 10, long)).toBe(900);
  });
});

describe('answerReleasesHold', () => {
  const { slowMs } = DEFAULT_HEALTH_POLICY;
  it('releases on a 2xx quicker than the breaker’s slowMs only', () => {
    expect(answerReleasesHold({ status: 200, ms: slowMs - 1 }, DEFAULT_HEALTH_POLICY)).toBe(true);
    expect(answerReleasesHold({ status: 204, ms: 20 }, DEFAULT_HEALTH_POLICY)).toBe(true);
    expect(answerReleasesHold({ status: 200, ms: slowMs }, DEFAULT_HEALTH_POLICY)).toBe(false);
    // Answering, but failing or asking for time: the breaker and the schedule decide, not the release.
    for (const status of [301, 429, 500, 503]) {
      expect(answerReleasesHold({ status, ms: 20 }, DEFAULT_HEALTH_POLICY)).toBe(false);
    }
  });
});

describe('holdReleasable', () => {
  it('releases only while the hold still has more than the margin to run', () => {
    expect(holdReleasable(NOW + RELEASE_MARGIN_MS + 1, NOW)).toBe(true);
    expect(holdReleasable(NOW + RELEASE_MARGIN_MS, NOW)).toBe(false);
    expect(holdReleasable(NOW - 5_000, NOW)).toBe(false);
  });
});
