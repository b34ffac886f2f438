/**
 * Runs the simulation's bench sections in a child process with a larger old-space heap: a 100,000-event
 * burst keeps every event, message and pending promise of the run in memory (about 1 GB at its peak),
 * more than Node's default heap on a small machine. `npm run bench` needs no flag for it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Old-space heap of the simulation's process, MB. */
export const SIMULATION_HEAP_MB = 3_072;

/** Runs `sections` of `simulate/main.ts` in a child process; throws when it fails. */
export function runSimulationBench(sections: readonly string[]): void {
  const main = fileURLToPath(new URL('./main.ts', import.meta.url));
  const result = spawnSync(
    process.execPath,
    [`--max-old-space-size=${SIMULATION_HEAP_MB}`, '--import', 'tsx', main, ...sections],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`simulation bench exited with ${result.status ?? result.signal}`);
}
