/**
 * One agreement scenario in the model, given what the local run measured: its DynamoDB, SQS and receiver
 * round trips; 4 pollers without cold starts or poller overhead; the stream read as `stream-link.ts`
 * does (a GetRecords round trip, then 200 ms pause; not Lambda's batching window), one stream shard; the
 * publishes spread evenly over the time the local run took (saturated) or at the scenario's rate (paced);
 * and the runtime's CPU as one shared CPU (`scenarios/shared-cpu.ts`) at a measured cost per event and
 * share of a core.
 */
import { LOCAL_CONSUMER_CONCURRENCY } from '#local/runtime';
import { fastReceiver, hangingReceiver } from '../receivers/receivers';
import { runConsumerScenario } from '../scenarios/consumer';
import { figures } from '../scenarios/consumer-run';
import type { ShareOverTime } from '../scenarios/shared-cpu';
import { CPU_WINDOW_MS, type LocalInputs, type LocalMeasurement } from './local-run';
import { ACCOUNTS, type AgreementFigures, type AgreementScenario, isFast } from './scenarios';

/** The local runtime's pause between stream polls (`stream-link.ts`): the model's forwarder polls as often. */
const LOCAL_STREAM_POLL_MS = 200;

/** The shared CPU the model gets: CPU ms per event, spent at `share` of a core (one figure or per window). */
export interface CpuInput {
  readonly msPerEvent: number;
  readonly share: number | ShareOverTime;
}

/**
 * The CPU a saturated run measured: its CPU time per event, and its CPU time over its wall time, which is
 * the share of a core it could get because it was CPU-bound.
 */
export function saturatedCpu(events: number, inputs: LocalInputs): CpuInput & { readonly share: number } {
  return { msPerEvent: inputs.cpuMs / events, share: Math.min(1, inputs.cpuMs / inputs.wallMs) };
}

/**
 * The same CPU with the share the saturated run measured in each 1 s window (its average after the
 * windows end): a diagnostic of whether the share's variation within a run explains the p50.
 */
export function windowedCpu(events: number, local: LocalMeasurement): CpuInput {
  const average = saturatedCpu(events, local.inputs);
  return {
    ...average,
    share: { windowMs: CPU_WINDOW_MS, shares: local.cpuWindows, rest: average.share },
  };
}

/** Runs `scenario` in the model with the local run's `inputs` and the shared CPU `cpu`. */
export async function simulateLocal(
  scenario: AgreementScenario,
  inputs: LocalInputs,
  cpu: CpuInput,
): Promise<AgreementFigures> {
  const plan = scenario.publish;
  const run = await runConsumerScenario({
    events: scenario.events,
    accounts: ACCOUNTS,
    accountsPerOrganization: ACCOUNTS,
    receiver: (index) => (isFast(index) ? fastReceiver(inputs.receiver) : hangingReceiver()),
    maximumConcurrency: LOCAL_CONSUMER_CONCURRENCY,
    // Event i at i × spread / events: the local run's pace, or exactly the paced scenario's schedule.
    publishOverMs: plan.kind === 'rate' ? (scenario.events * 1000) / plan.perSecond : inputs.publishMs,
    dynamoLatency: inputs.dynamo,
    sqsLatency: inputs.sqs,
    coldStart: 0,
    invokeOverhead: 0,
    forwarderPoll: { everyMs: LOCAL_STREAM_POLL_MS, readLatency: inputs.dynamo },
    streamShards: 1,
    stopAtDeliveryOf: isFast,
    localCpu: cpu,
  });
  const f = figures(run, isFast);
  return {
    drainMs: f.fastDrainedMs,
    fastP50Ms: f.fastP50Ms,
    fastP90Ms: f.fastP90Ms,
    fastP99Ms: f.fastP99Ms,
    delivered: f.delivered,
  };
}
