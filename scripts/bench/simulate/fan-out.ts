/**
 * The fan-out on AWS's modelled limits (issue 32): 1,000 accounts with three endpoints each (the default
 * one and two extra, all subscribed to every event), 10 events per account published over 10 s (more
 * than the consumer delivers at the stack's concurrency: a burst) or over 100 s (paced), every
 * event fanned out to its account's three endpoints. 1 % of the endpoints (the first extra endpoint of 30
 * accounts) hang, answer after 3 s or answer 500; the healthy endpoints' publish → 2xx p50 and p99
 * (the bad endpoints' neighbours in the same accounts included) are compared with the same run where
 * every endpoint is healthy. The run ends once every healthy endpoint has its events. The units per event
 * of the healthy run are set beside the same events to one endpoint per account.
 */
import { dollarsPerMillion, unitsPerEvent } from './cost';
import {
  failingReceiver,
  fastReceiver,
  hangingReceiver,
  type Receiver,
  slowReceiver,
} from './receivers/receivers';
import { markdownTable, quantile } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import type { ConsumerRun } from './scenarios/consumer-run';
import { type ConsumerScenario, scenarioEndpointUrl } from './scenarios/consumer-scenario';

const ACCOUNTS = 1_000;
const EXTRA_ENDPOINTS = 2;
const EVENTS = 10_000;
/** Accounts `i` with `i % 100` below this have a bad first extra endpoint: 30 of the 3,000 endpoints. */
const BAD_PER_HUNDRED = 3;
const BAD_ENDPOINTS = (ACCOUNTS / 100) * BAD_PER_HUNDRED;
/** Deliveries at the endpoints that are healthy in every row (the baseline's are compared alike). */
const HEALTHY_PAIRS = (ACCOUNTS * (1 + EXTRA_ENDPOINTS) - BAD_ENDPOINTS) * (EVENTS / ACCOUNTS);

/** Whether endpoint `index` (scenario numbering: defaults first, then the extras) is a bad one. */
function isBad(index: number): boolean {
  if (index < ACCOUNTS) return false;
  const extra = index - ACCOUNTS;
  return extra % EXTRA_ENDPOINTS === 0 && Math.floor(extra / EXTRA_ENDPOINTS) % 100 < BAD_PER_HUNDRED;
}

const BAD_KINDS: Record<string, (() => Receiver) | undefined> = {
  'none (baseline)': undefined,
  hanging: () => hangingReceiver(),
  'slow (3 s)': () => slowReceiver(3_000),
  'failing (500)': () => failingReceiver(500),
};

/** The consumer's maximum concurrency and how long the events are published over. */
export interface FanOutLoad {
  readonly maximumConcurrency: number;
  readonly publishOverMs: number;
}

/** One row: the healthy endpoints' latency while 1 % of the endpoints are of one bad kind. */
export interface FanOutRow extends FanOutLoad {
  readonly bad: string;
  readonly healthyP50Ms: number;
  readonly healthyP99Ms: number;
  /** p50 over the baseline's p50 (same concurrency, no bad endpoint). */
  readonly ratio: number;
  /** The healthy neighbours of bad endpoints (same account): their p50. */
  readonly neighbourP50Ms: number;
  /** Deliveries at healthy endpoints, and how many there are. */
  readonly healthyDelivered: string;
  readonly invocations: number;
  readonly virtualS: number;
}

const scenario = (
  { maximumConcurrency, publishOverMs }: FanOutLoad,
  bad: (() => Receiver) | undefined,
  extraEndpoints = EXTRA_ENDPOINTS,
): ConsumerScenario => ({
  events: EVENTS,
  accounts: ACCOUNTS,
  extraEndpoints,
  receiver: (index) => (bad && isBad(index) ? bad() : fastReceiver()),
  maximumConcurrency,
  publishOverMs,
  stopAtDeliveryOf: () => true,
  awaitEndpoint: (index) => !bad || !isBad(index),
  table: { mode: { kind: 'on-demand', warmWriteUnits: 40_000, warmReadUnits: 40_000 } },
});

/** Publish → first 2xx at each healthy endpoint, all and of the bad endpoints' neighbours. */
function healthyLatencies(run: ConsumerRun): { all: number[]; neighbours: number[] } {
  const all: number[] = [];
  const neighbours: number[] = [];
  for (const event of run.events) {
    const account = run.accountIndex.get(event.account) ?? -1;
    const published = run.publishedAt.get(event.id);
    if (published === undefined) continue;
    const extras = Array.from(
      { length: EXTRA_ENDPOINTS },
      (_, j) => ACCOUNTS + account * EXTRA_ENDPOINTS + j,
    );
    const hasBad = extras.some(isBad);
    for (const endpoint of [account, ...extras]) {
      if (isBad(endpoint)) continue;
      const at = run.deliveredAtEndpoint.get(`${event.id} ${scenarioEndpointUrl(endpoint)}`);
      if (at === undefined) continue;
      all.push(at - published);
      if (hasBad) neighbours.push(at - published);
    }
  }
  return { all, neighbours };
}

/** Runs every bad kind at each load; prints the units per event of the healthy runs. */
export async function printFanOut(loads: readonly FanOutLoad[]): Promise<void> {
  console.log(
    `\n## Fan-out: ${ACCOUNTS.toLocaleString('en-US')} accounts × ${1 + EXTRA_ENDPOINTS} endpoints, ${EVENTS.toLocaleString('en-US')} events, 1 % of the endpoints bad (docs/simulation.md)\n`,
  );
  const started = performance.now();
  const rows: FanOutRow[] = [];
  const costs: (string | number)[][] = [];
  let operations: (string | number)[][] = [];
  for (const load of loads) {
    const name = `concurrency ${load.maximumConcurrency}, over ${load.publishOverMs / 1000} s`;
    let baseline = Number.NaN;
    for (const [bad, receiver] of Object.entries(BAD_KINDS)) {
      const run = await runConsumerScenario(scenario(load, receiver));
      const { all, neighbours } = healthyLatencies(run);
      const p50 = quantile(all, 0.5);
      if (receiver === undefined) {
        baseline = p50;
        costs.push(...costRows(`${1 + EXTRA_ENDPOINTS} endpoints, ${name}`, run));
        if (operations.length === 0) operations = operationRows(run);
      }
      rows.push({
        ...load,
        bad,
        healthyP50Ms: p50,
        healthyP99Ms: quantile(all, 0.99),
        ratio: p50 / baseline,
        neighbourP50Ms: quantile(neighbours, 0.5),
        healthyDelivered: `${all.length} / ${HEALTHY_PAIRS}`,
        invocations: run.lambda.invocations,
        virtualS: run.virtualMs / 1000,
      });
    }
    const single = await runConsumerScenario(scenario(load, undefined, 0));
    costs.push(...costRows(`1 endpoint, ${name}`, single));
  }
  console.log(
    markdownTable(
      [
        'concurrency',
        'published over (s)',
        'bad endpoints (1 %)',
        'healthy p50 (ms)',
        'healthy p99 (ms)',
        'p50 / baseline',
        "bad endpoints' neighbours p50 (ms)",
        'healthy deliveries',
        'invocations',
        'virtual s',
      ],
      rows.map((row) => [
        row.maximumConcurrency,
        row.publishOverMs / 1000,
        row.bad,
        Math.round(row.healthyP50Ms),
        Math.round(row.healthyP99Ms),
        row.ratio.toFixed(2),
        Math.round(row.neighbourP50Ms),
        row.healthyDelivered,
        row.invocations,
        row.virtualS,
      ]),
    ),
  );
  console.log('\nCapacity units per event (every endpoint healthy, all first-try):\n');
  console.log(
    markdownTable(
      ['run', 'function', 'read', 'table write', 'index write', '$ per million events'],
      costs,
      2,
    ),
  );
  console.log(`\nBy operation, ${1 + EXTRA_ENDPOINTS} endpoints, the first load, per event:\n`);
  console.log(markdownTable(['operation', 'calls', 'read', 'write', 'index write'], operations, 2));
  console.log(`\nWall time of the fan-out: ${Math.round((performance.now() - started) / 1000)} s.`);
}

/** Requests and units per event of each metered operation of a run. */
function operationRows(run: ConsumerRun): (string | number)[][] {
  const events = run.events.length;
  return [...run.dynamo.operations].map(([operation, counts]) => [
    operation,
    counts.calls / events,
    counts.readUnits / events,
    counts.writeUnits / events,
    counts.indexWriteUnits / events,
  ]);
}

/** Units per event of a run by function, and in total. */
function costRows(name: string, run: ConsumerRun): (string | number)[][] {
  return unitsPerEvent(run.dynamo, run.events.length).map((row) => [
    name,
    row.role,
    row.readUnits,
    row.writeUnits,
    row.indexWriteUnits,
    dollarsPerMillion({ readUnits: row.readUnits, writeUnits: row.writeUnits + row.indexWriteUnits }),
  ]);
}
