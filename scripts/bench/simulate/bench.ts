/**
 * `npm run bench -- simulate`: a short smoke run of the simulation over the current consumer code
 * (`deliverBatch` on modelled SQS, Lambda and DynamoDB), to show the plumbing. The full month-end table of
 * issue 19 comes once the remaining use-cases are wired; `scale.ts` measures the engine at that size.
 */

import { failingReceiver, fastReceiver, hangingReceiver, slowReceiver } from './receivers/receivers';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';

const EVENTS = 2_000;
const ACCOUNTS = 100;

/** Receivers of the smoke's two mixes: all fast, or 1 % hanging, 1 % slow and 1 % failing. */
const MIXES = {
  'all fast': () => fastReceiver(),
  '1 % hanging, 1 % slow, 1 % 500': (index: number) =>
    index === 0
      ? hangingReceiver()
      : index === 1
        ? slowReceiver(3_000)
        : index === 2
          ? failingReceiver(500)
          : fastReceiver(),
} as const;

/** Runs the smoke scenarios and prints their table. */
export async function printSimulationSmoke(): Promise<void> {
  console.log(
    `\n## Simulation smoke: ${EVENTS.toLocaleString('en-US')} events over ${ACCOUNTS} accounts, published in 10 s, 30 virtual minutes (docs/simulation.md)\n`,
  );
  const rows: (string | number)[][] = [];
  for (const [mix, receiver] of Object.entries(MIXES)) {
    for (const maximumConcurrency of [20, 100]) {
      const run = await runConsumerScenario({
        events: EVENTS,
        accounts: ACCOUNTS,
        receiver,
        maximumConcurrency,
        publishOverMs: 10_000,
        maxVirtualMs: 30 * 60_000,
      });
      const f = figures(run, (index) => index >= 3);
      rows.push([
        mix,
        maximumConcurrency,
        f.delivered,
        f.fastP50Ms,
        f.fastP99Ms,
        f.fastDrainedMs / 1000,
        f.invocations,
        f.coldStarts,
        f.readUnitsPerDelivered,
        f.writeUnitsPerDelivered,
        f.sqsRequestsPerDelivered,
        f.throttles,
        run.callbacks,
        run.wallMs,
      ]);
    }
  }
  console.log(
    markdownTable(
      [
        'receivers',
        'max concurrency',
        'delivered',
        'fast p50 (ms)',
        'fast p99 (ms)',
        'fast drained (s)',
        'invocations',
        'cold starts',
        'RCU / delivered',
        'WCU / delivered',
        'SQS requests / delivered',
        'throttles',
        'callbacks',
        'wall (ms)',
      ],
      rows,
      2,
    ),
  );
}
