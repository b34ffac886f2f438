/**
 * The engine at the size of issue 19's table, measured: `npx tsx scripts/bench/simulate/scale.ts
 * [events] [concurrency…]` runs the consumer scenario (Herald's real `deliverBatch`) with a month-end
 * burst over 1,000 accounts (1 % hanging, 1 % slow, published in one minute) until every event settled,
 * then the synthetic burst (`scenarios/synthetic.ts`, the engine and models without Herald's code), and
 * prints wall time, callbacks and virtual time of each. Speeds vary by machine; callbacks do not.
 */

import { fastReceiver, hangingReceiver, slowReceiver } from './receivers/receivers';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';
import { runSyntheticScenario } from './scenarios/synthetic';

const [eventsArg, ...concurrencyArgs] = process.argv.slice(2);
const events = Number(eventsArg ?? 100_000);
const concurrencies = concurrencyArgs.length > 0 ? concurrencyArgs.map(Number) : [20, 100, 1_000];
const accounts = 1_000;
const hours = (ms: number | undefined) => (ms === undefined ? Number.NaN : ms / 3_600_000);

console.log(`\n## Engine scale: ${events.toLocaleString('en-US')} events over ${accounts} accounts\n`);
const rows: (string | number)[][] = [];
for (const maximumConcurrency of concurrencies) {
  const run = await runConsumerScenario({
    events,
    accounts,
    maximumConcurrency,
    publishOverMs: 60_000,
    receiver: (i) =>
      i < accounts / 100 ? hangingReceiver() : i < accounts / 50 ? slowReceiver(3_000) : fastReceiver(),
  });
  const f = figures(run, (index) => index >= accounts / 50);
  rows.push([
    'consumer (deliverBatch)',
    maximumConcurrency,
    run.wallMs / 1000,
    run.callbacks,
    run.callbacks / (run.wallMs / 1000),
    hours(run.settledMs),
    f.fastDrainedMs / 1000,
    f.invocations,
    process.memoryUsage().rss / 2 ** 20,
  ]);
  const synthetic = await runSyntheticScenario({ events, accounts, maximumConcurrency });
  rows.push([
    'synthetic',
    maximumConcurrency,
    synthetic.wallMs / 1000,
    synthetic.callbacks,
    synthetic.callbacks / (synthetic.wallMs / 1000),
    hours(synthetic.drainedMs),
    Number.NaN,
    synthetic.invocations,
    process.memoryUsage().rss / 2 ** 20,
  ]);
}
console.log(
  markdownTable(
    [
      'scenario',
      'max concurrency',
      'wall (s)',
      'callbacks',
      'callbacks / s',
      'settled (virtual h)',
      'healthy drained (virtual s)',
      'invocations',
      'RSS (MB)',
    ],
    rows,
  ),
);
