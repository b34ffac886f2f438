/** When a held consumer invocation pulls more messages, when it stops, and when a pulled message waits. */
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import {
  type HeldState,
  heldEndpointDeferSeconds,
  nextPullStep,
  pullSettings,
} from '#domain/delivery/held-invocation';

const settings = pullSettings(PULL_WHEN_HELD, 10_000);
const NOW = Date.parse('2026-11-20T10:00:00.000Z');

function state(overrides: Partial<HeldState> = {}): HeldState {
  return {
    now: NOW,
    batchSettled: false,
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

  it('stops once the batch is settled, at the cap, and near the deadline', () => {
    expect(nextPullStep(state({ batchSettled: true }), settings)).toEqual({
      kind: 'stop',
      reason: 'batch settled',
    });
    expect(nextPullStep(state({ pulled: 100 }), settings)).toEqual({ kind: 'stop', reason: 'cap reached' });
    expect(nextPullStep(state({ pulled: 95 }), settings)).toEqual({ kind: 'pull', max: 5 });
    // One attempt timeout (10 s) plus the 5 s margin must still fit.
    expect(nextPullStep(state({ remainingMs: 14_999 }), settings)).toEqual({
      kind: 'stop',
      reason: 'deadline',
    });
    expect(nextPullStep(state({ remainingMs: 15_000 }), settings).kind).toBe('pull');
  });
});

describe('heldEndpointDeferSeconds', () => {
  it('does not hold a URL that answered here since its oldest slow attempt started (busy, not hanging)', () => {
    expect(
      heldEndpointDeferSeconds({ starts: [NOW - 3_000], lastAnswerAt: NOW - 100 }, NOW, 1, settings),
    ).toBeUndefined();
    expect(
      heldEndpointDeferSeconds({ starts: [NOW - 3_000], lastAnswerAt: NOW - 3_000 }, NOW, 1, settings),
    ).toBeUndefined();
    // Its last answer came before the attempt that is still open.
    expect(
      heldEndpointDeferSeconds({ starts: [NOW - 3_000], lastAnswerAt: NOW - 3_001 }, NOW, 1, settings),
    ).toBe(9);
  });

  it('is undefined unless the URL has had an attempt in flight here for a second', () => {
    expect(heldEndpointDeferSeconds({ starts: [] }, NOW, 1, settings)).toBeUndefined();
    // Slow enough to pull, not yet enough to hold the URL: a loaded machine's healthy answer.
    expect(heldEndpointDeferSeconds({ starts: [NOW - 999] }, NOW, 1, settings)).toBeUndefined();
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 1, settings)).toBe(11);
  });

  it('waits until the oldest held attempt must have timed out, plus two seconds, growing with receives', () => {
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_500, NOW - 9_500] }, NOW, 1, settings)).toBe(3);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 20_000] }, NOW, 1, settings)).toBe(2);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 3, settings)).toBe(33);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 50, settings)).toBe(110);
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 1, settings, 0.99)).toBe(15);
  });

  it('stays within SQS’s 15 min delay', () => {
    const long = { heldAfterMs: 1_000, attemptTimeoutMs: 600_000 };
    expect(heldEndpointDeferSeconds({ starts: [NOW - 1_000] }, NOW, 10, long)).toBe(900);
  });
});
