/**
 * `npm run bench -- simulate`: Herald's real code on the modelled AWS services (docs/simulation.md): one
 * organization's publish ceiling with the sharded index and without, one account at its log's limits,
 * capacity units per event delivered at the first try against the design's floor, and the month-end burst
 * (`burst.ts`).
 */
import { dollarsPerMillion, FLOOR, unitsPerEvent } from './cost';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';
import { measureFileRate } from './scenarios/one-account';
import { measurePublishRate, publishCeiling } from './scenarios/publish-ceiling';

/** Prints one organization's highest sustained publish rate, 1 shard (before) and Herald's shards. */
export async function printPublishCeiling(): Promise<void> {
  console.log(
    '\n## One organization’s publish ceiling: steady publishes for 3 virtual s over 10,000 accounts, table warmed to 40,000 units/s (docs/simulation.md)\n',
  );
  const rows: (string | number)[][] = [];
  const layouts = [
    {
      name: 'one index partition per organization (before)',
      indexShards: 1,
      rates: [500, 750, 1_000, 1_250],
    },
    {
      name: 'write-sharded index (EVENT_INDEX_SHARDS)',
      indexShards: undefined,
      rates: [5_000, 10_000, 12_000, 14_000, 16_000, 18_000],
    },
  ];
  for (const layout of layouts) {
    const { ceiling, points } = await publishCeiling(layout.rates, {
      seconds: 3,
      ...(layout.indexShards === undefined ? {} : { indexShards: layout.indexShards }),
    });
    for (const point of points) {
      rows.push([
        layout.name,
        point.rate,
        point.storedPerSecond,
        point.throttles,
        point.resent,
        point.sustained ? 'yes' : 'no',
        point.wallMs / 1000,
      ]);
    }
    console.log(`${layout.name}: highest sustained rate ${ceiling.toLocaleString('en-US')} publishes/s`);
  }
  console.log(
    `\n${markdownTable(['index layout', 'offered (publishes/s)', 'stored (/s)', 'throttled requests', 'publishes sent again', 'sustained', 'wall (s)'], rows)}`,
  );
}

/** Offered single publishes per second of one account, from a trickle to its partition's limit. */
const ONE_ACCOUNT_RATES = [20, 50, 100, 200, 400, 600, 800, 1_000];

/**
 * Prints one account's publishing on the modelled partition limits: single publishes offered at steady
 * rates for 2 virtual s (clients resend a busy or failed publish after 200 ms, doubled, three sends), and
 * a 20,000-event file through batches of 100 (one sender, as the CLI sends a file; and four).
 */
export async function printOneAccount(): Promise<void> {
  console.log(
    '\n## One account on the modelled AWS limits: single publishes at a steady rate for 2 virtual s (three sends), and a 20,000-event file in batches of 100\n',
  );
  const rows: (string | number)[][] = [];
  for (const rate of ONE_ACCOUNT_RATES) {
    const p = await measurePublishRate({ rate, accounts: 1, seconds: 2 });
    rows.push([
      `single, offered ${rate}/s`,
      p.storedPerSecond,
      p.requestsPerStored,
      p.readUnitsPerStored,
      p.writeUnitsPerStored,
      p.throttles,
      p.busy,
      p.abandoned,
    ]);
  }
  for (const senders of [1, 4]) {
    const f = await measureFileRate({ events: 20_000, senders });
    rows.push([
      `file, ${senders} sender${senders === 1 ? '' : 's'}: ${f.seconds.toFixed(1)} s`,
      f.storedPerSecond,
      f.requestsPerStored,
      f.readUnitsPerStored,
      f.writeUnitsPerStored,
      f.throttles,
      0,
      f.abandoned,
    ]);
  }
  console.log(
    markdownTable(
      [
        'publishing',
        'stored (/s)',
        'requests / event',
        'read units / event',
        'write units / event',
        'throttled requests',
        'busy',
        'abandoned',
      ],
      rows,
      1,
    ),
  );
}

/** Prints capacity units per event delivered at the first try, by function, against the floor. */
export async function printFirstTryCost(): Promise<void> {
  console.log(
    '\n## Capacity units per event delivered at the first try: 2,000 events over 100 fast accounts, published over 10 s\n',
  );
  const run = await runConsumerScenario({ events: 2_000, accounts: 100, publishOverMs: 10_000 });
  const f = figures(run, () => true);
  const rows = unitsPerEvent(run.dynamo, f.delivered).map((row) => [
    row.role,
    row.readUnits,
    row.writeUnits,
    row.indexWriteUnits,
    row.writeUnits + row.indexWriteUnits,
    dollarsPerMillion({ readUnits: row.readUnits, writeUnits: row.writeUnits + row.indexWriteUnits }),
  ]);
  rows.push([
    'floor of the design',
    FLOOR.readUnits,
    Number.NaN,
    Number.NaN,
    FLOOR.writeUnits,
    dollarsPerMillion(FLOOR),
  ]);
  console.log(
    markdownTable(['function', 'read', 'table write', 'index write', 'all writes', '$ per million'], rows, 2),
  );
  const total = rows.find((row) => row[0] === 'total');
  const ratio = Number(total?.[5]) / dollarsPerMillion(FLOOR);
  console.log(
    `\nDelivered ${f.delivered} of 2,000 at the first try (outcomes ${JSON.stringify(run.outcomes)}); ${ratio.toFixed(2)}× the floor in dollars, throttled requests ${f.throttles}.`,
  );
}
