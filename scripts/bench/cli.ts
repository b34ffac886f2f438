/**
 * `npm run bench -- cli`: how fast the operator CLI starts. Median wall time of `--help` over fresh
 * processes, run in turns so that load on the machine hits every variant alike: a bare `node -e 0` (the
 * floor), the bundled CLI as `bin/herald.mjs` runs it, the same through the `node_modules/.bin/herald`
 * link, the TypeScript sources compiled by tsx at start (how `bin/herald.mjs` ran before the bundle), and
 * `npx herald` (a few runs: about a second each).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const RUNS = 21;
const NPX_RUNS = 3;

/** One way of starting the CLI. */
interface Variant {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly runs: number;
}

const node = process.execPath;
const VARIANTS: readonly Variant[] = [
  { name: 'node -e 0', command: node, args: ['-e', '0'], runs: RUNS },
  { name: 'node bin/herald.mjs --help', command: node, args: ['bin/herald.mjs', '--help'], runs: RUNS },
  {
    name: 'herald --help (node_modules/.bin link)',
    command: join(ROOT, 'node_modules/.bin/herald'),
    args: ['--help'],
    runs: RUNS,
  },
  {
    name: 'node --import tsx scripts/cli/main.ts --help (before: TypeScript at start)',
    command: node,
    args: ['--import', 'tsx', 'scripts/cli/main.ts', '--help'],
    runs: RUNS,
  },
  { name: 'npx herald --help', command: 'npx', args: ['herald', '--help'], runs: NPX_RUNS },
];

function timeOnce(variant: Variant): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(variant.command, variant.args, { cwd: ROOT, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`${variant.name} exited with ${run.status ?? run.signal}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Median start time of each variant, in ms, and the bundled CLI's margin over the floor. */
export function measureCliStart(): { rows: { name: string; medianMs: number }[]; overFloorMs: number } {
  for (const variant of VARIANTS) timeOnce(variant); // warm the file cache and the bundle
  const times = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, []]));
  for (let round = 0; round < RUNS; round += 1) {
    for (const variant of VARIANTS) {
      if (round < variant.runs) times.get(variant)?.push(timeOnce(variant));
    }
  }
  const rows = VARIANTS.map((variant) => ({
    name: variant.name,
    medianMs: median(times.get(variant) ?? []),
  }));
  const [floor, bundled] = rows;
  return { rows, overFloorMs: (bundled?.medianMs ?? 0) - (floor?.medianMs ?? 0) };
}
