/**
 * `npm run bench -- simulate-agree` (`AGREE_RUNS=n`, default 3): the model against the local runtime,
 * `n` repetitions of both scenarios (`scenarios.ts`), each local run in a child process and the model
 * given what that run measured. Prints one markdown row per run and scenario with the verdict against
 * {@link TOLERANCE}, the measured inputs and phases, and how many runs agree.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_CONSUMER_CONCURRENCY } from '#local/runtime';
import { markdownTable } from '../report';
import type { LocalMeasurement } from './local-run';
import { type CpuInput, saturatedCpu, simulateLocal, windowedCpu } from './model-run';
import type { AgreementFigures } from './scenarios';
import { ACCOUNTS, type AgreementScenario, FAST_ACCOUNTS, PACED, SATURATED, TOLERANCE } from './scenarios';

/** One repetition of one scenario: both sides and the CPU the model got. */
interface Compared {
  readonly run: number;
  readonly local: LocalMeasurement;
  readonly model: AgreementFigures;
  readonly cpu: CpuInput & { readonly share: number };
  /** Saturated only: the model with the CPU share of each 1 s window (a diagnostic, not judged). */
  readonly windowed?: AgreementFigures;
}

/** Runs one scenario on the local runtime in a child process. */
function measureLocalInChild(scenario: AgreementScenario): LocalMeasurement {
  const dir = mkdtempSync(join(tmpdir(), 'herald-agree-'));
  try {
    const out = join(dir, 'local.json');
    const child = fileURLToPath(new URL('./local-child.ts', import.meta.url));
    const result = spawnSync(process.execPath, ['--import', 'tsx', child, scenario.name, out], {
      stdio: 'inherit',
    });
    if (result.status !== 0)
      throw new Error(`local ${scenario.name} run exited with ${result.status ?? result.signal}`);
    return JSON.parse(readFileSync(out, 'utf8')) as LocalMeasurement;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Relative difference of the model from the local figure. */
const off = (model: number, local: number): number => Math.abs(model - local) / local;

/** Whether a row's compared figures are all within the tolerance, figure by figure. */
function checks(row: Compared): Record<string, boolean> {
  const { local, model } = row;
  if (local.scenario === 'saturated') {
    return { drain: off(model.drainMs, local.figures.drainMs) <= TOLERANCE.saturated.drain };
  }
  return {
    p50: off(model.fastP50Ms, local.figures.fastP50Ms) <= TOLERANCE.paced.p50,
    p90: off(model.fastP90Ms, local.figures.fastP90Ms) <= TOLERANCE.paced.p90,
  };
}

const withOff = (model: number, local: number, scale = 1): string =>
  `${(model / scale).toLocaleString('en-US', { maximumFractionDigits: scale === 1 ? 0 : 1 })} (${(off(model, local) * 100).toFixed(0)} %)`;

function verdictRow(row: Compared): (string | number)[] {
  const { local, model, cpu } = row;
  const passed = checks(row);
  const failed = Object.keys(passed).filter((figure) => !passed[figure]);
  return [
    row.run,
    local.scenario,
    local.loadAverage.toFixed(1),
    (local.figures.drainMs / 1000).toFixed(1),
    withOff(model.drainMs, local.figures.drainMs, 1000),
    local.figures.fastP50Ms.toFixed(0),
    withOff(model.fastP50Ms, local.figures.fastP50Ms),
    local.figures.fastP90Ms.toFixed(0),
    withOff(model.fastP90Ms, local.figures.fastP90Ms),
    `${cpu.msPerEvent.toFixed(1)} ms, ${(cpu.share * 100).toFixed(0)} %`,
    failed.length === 0 ? '**agree**' : `disagree (${failed.join(', ')})`,
  ];
}

const ms = (m: { medianMs: number; p99Ms: number }) => `${m.medianMs.toFixed(0)}/${m.p99Ms.toFixed(0)}`;

function detailRow(row: Compared): (string | number)[] {
  const { inputs, phases, cpuShare, figures } = row.local;
  const pct = (x: number) => `${(x * 100).toFixed(0)}`;
  return [
    row.run,
    row.local.scenario,
    `${ms(inputs.dynamo)} · ${ms(inputs.sqs)} · ${ms(inputs.receiver)}`,
    inputs.publishMs / 1000,
    `${phases.publish.toFixed(0)} · ${phases.stream.toFixed(0)} · ${phases.queue.toFixed(0)} · ${phases.delivery.toFixed(0)}`,
    `${pct(cpuShare.p10)} · ${pct(cpuShare.p50)} · ${pct(cpuShare.p90)} %`,
    `${((inputs.cpuMs / inputs.wallMs) * 100).toFixed(0)} %`,
    `${figures.fastP99Ms.toFixed(0)} / ${row.model.fastP99Ms.toFixed(0)}`,
    row.windowed
      ? `${withOff(row.windowed.drainMs, figures.drainMs, 1000)} · ${withOff(row.windowed.fastP50Ms, figures.fastP50Ms)}`
      : '–',
  ];
}

/** Repetitions from `AGREE_RUNS` (default 3). */
function repetitions(): number {
  const n = Number(process.env.AGREE_RUNS ?? 3);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`AGREE_RUNS must be a positive integer, not ${process.env.AGREE_RUNS}`);
  return n;
}

/** Runs every repetition and prints the verdict table, the details and the count that agree. */
export async function printAgreement(): Promise<void> {
  const runs = repetitions();
  console.log(
    `\n## Agreement: the model against the local runtime (${FAST_ACCOUNTS} fast accounts + 1 hanging (every ${ACCOUNTS}st event), ${LOCAL_CONSUMER_CONCURRENCY} pollers; ${runs} runs; ${new Date().toISOString().slice(0, 16)} UTC)\n`,
  );
  const rows: Compared[] = [];
  for (let run = 1; run <= runs; run++) {
    const saturated = measureLocalInChild(SATURATED);
    const cpu = saturatedCpu(SATURATED.events, saturated.inputs);
    rows.push({
      run,
      local: saturated,
      cpu,
      model: await simulateLocal(SATURATED, saturated.inputs, cpu),
      windowed: await simulateLocal(SATURATED, saturated.inputs, windowedCpu(SATURATED.events, saturated)),
    });
    // The paced model gets the CPU of this repetition's saturated run (see model-run.ts).
    const paced = measureLocalInChild(PACED);
    rows.push({ run, local: paced, cpu, model: await simulateLocal(PACED, paced.inputs, cpu) });
    console.error(`[simulate-agree] run ${run} of ${runs} done`);
  }
  const t = TOLERANCE;
  console.log(
    `Tolerance (fixed before the runs): saturated drain ${t.saturated.drain * 100} % (its p50 not judged); paced p50 ${t.paced.p50 * 100} %, p90 ${t.paced.p90 * 100} % (model's difference from the local figure in brackets).\n`,
  );
  console.log(
    markdownTable(
      [
        'run',
        'scenario',
        'load avg',
        'local drain (s)',
        'model drain (s)',
        'local p50 (ms)',
        'model p50 (ms)',
        'local p90 (ms)',
        'model p90 (ms)',
        'model CPU per event, share',
        'verdict',
      ],
      rows.map(verdictRow),
      2,
    ),
  );
  console.log(
    `\nMeasured in the local runs: round trips median/p99 (DynamoDB · SQS · receiver, ms, given to the model), publishing time, the fast events' median phases (publish · stream · queue · delivery, ms), the runtime's share of a core in 1 s windows (p10 · p50 · p90) and over the run, fast p99 (local / model, ms), and (saturated only, not judged) the model given the share of each 1 s window instead of the run's average.\n`,
  );
  console.log(
    markdownTable(
      [
        'run',
        'scenario',
        'round trips (ms)',
        'publishing (s)',
        'phases (ms)',
        'CPU share, 1 s windows',
        'CPU share, run',
        'p99 local / model (ms)',
        'model with windowed CPU: drain (s) · p50 (ms)',
      ],
      rows.map(detailRow),
    ),
  );
  const count = (scenario: string, figure: string) =>
    rows.filter((row) => row.local.scenario === scenario && checks(row)[figure]).length;
  const all = (scenario: string) =>
    rows.filter((row) => row.local.scenario === scenario && Object.values(checks(row)).every(Boolean)).length;
  console.log(
    `\nAgree: saturated (drain) ${all('saturated')} of ${runs}; paced ${all('paced')} of ${runs} (p50 ${count('paced', 'p50')}, p90 ${count('paced', 'p90')}).`,
  );
}
