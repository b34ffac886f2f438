/**
 * The agreement check's shared CPU: work queues first come, first served, `ms` of CPU taking
 * `ms / share` of virtual time, with one share or the share measured in each window of the local run.
 */
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';
import { SharedCpu, type ShareOverTime } from '../../../scripts/bench/simulate/scenarios/shared-cpu';

/** When each of `uses` (CPU ms, all queued at the start) is done, from the start. */
async function doneAt(share: number | ShareOverTime, uses: readonly number[]): Promise<number[]> {
  const engine = new Scheduler({ seed: 1 });
  const start = engine.now();
  const cpu = new SharedCpu(engine, share);
  const done: number[] = [];
  for (const ms of uses) {
    engine.spawn(async () => {
      await cpu.use(ms);
      done.push(engine.now() - start);
    });
  }
  await engine.run();
  return done;
}

describe('SharedCpu', () => {
  it('serves queued work in turn at one share', async () => {
    expect(await doneAt(0.25, [10, 20])).toEqual([40, 120]);
  });

  it('serves each window at its own share, then the rest at `rest`', async () => {
    // 500 ms of CPU fit the first second at 0.5; the next 100 take the second at 0.1; then 1:1.
    const share = { windowMs: 1_000, shares: [0.5, 0.1], rest: 1 };
    expect(await doneAt(share, [600, 100])).toEqual([2_000, 2_100]);
  });

  it('never stalls on a window where the process used no CPU', async () => {
    const [done] = await doneAt({ windowMs: 1_000, shares: [0], rest: 1 }, [20]);
    expect(done).toBe(1_010);
  });
});
