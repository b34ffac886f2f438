/**
 * The local runtime's stand-in for the stack's every-minute rule: the summary runs on every tick, one run
 * at a time (a tick during a run is skipped), an error reported without stopping the schedule, and stop()
 * waits for the run under way. Fake timers: no waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startNoticeSchedule } from '../../scripts/local/notice-topic';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('notice schedule', () => {
  it('runs on every tick, skips a tick while a run is under way, and goes on after an error', async () => {
    let runs = 0;
    let release: (() => void) | undefined;
    const errors: unknown[] = [];
    const schedule = startNoticeSchedule({
      everyMs: 60_000,
      onError: (error) => errors.push(error),
      handler: async () => {
        runs += 1;
        if (runs === 1) throw new Error('table unreachable');
        if (runs === 2) await new Promise<void>((done) => (release = done));
      },
    });
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    expect(errors).toEqual([new Error('table unreachable')]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    // The second run is still under way: the next two ticks are skipped.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(2);
    release?.();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(3);
    await schedule.stop();
    await vi.advanceTimersByTimeAsync(180_000);
    expect(runs).toBe(3);
  });

  it('stop() waits for the run under way', async () => {
    let finished = false;
    let release: (() => void) | undefined;
    const schedule = startNoticeSchedule({
      everyMs: 1_000,
      onError: () => undefined,
      handler: async () => {
        await new Promise<void>((done) => (release = done));
        finished = true;
      },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = schedule.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release?.();
    await stopping;
    expect(finished).toBe(true);
  });
});
