/** The simulation tests' one arrangement: a fresh engine running a test's steps as one process. */
import { expect } from 'vitest';
import { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';

/**
 * Runs `steps` as one process of a fresh engine (virtual time from 0) until nothing is scheduled, and
 * fails when a step threw or never resumed (a model that loses a wake-up would otherwise pass silently).
 */
export async function simulate(steps: (engine: Scheduler) => Promise<void>, seed = 1): Promise<Scheduler> {
  const engine = new Scheduler({ startMs: 0, seed });
  let finished = false;
  engine.spawn(async () => {
    await steps(engine);
    finished = true;
  });
  await engine.run({ maxEvents: 5_000_000 });
  expect(engine.errors).toEqual([]);
  expect(finished).toBe(true);
  return engine;
}
