/**
 * A publish storm that throttles the consumer's reads (the first wave's old shape at concurrency 1,000):
 * 15,000 publishes in one second to ten accounts, 200 events of 50 fast accounts right behind, fast
 * receivers only, the table warmed for writes only. The sequence contention's reads throttle the table's
 * read throughput, and the consumer's reads still throttled after the SDK's retries throw: this shows how
 * late the latest fast events arrive, which the consumer's short postponement after an unexpected error
 * (`errorRetrySeconds`) bounds; before it, such messages came back after the 720 s visibility timeout.
 */
import { FAST_ACCOUNTS, FAST_EVENTS } from './first-wave';
import { fastReceiver } from './receivers/receivers';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';

const STORM_ACCOUNTS = 10;
const STORM_EVENTS = 15_000;
const MAXIMUM_CONCURRENCY = 1_000;

/** What the storm run showed. */
export interface ReadStormFigures {
  readonly fastP50Ms: number;
  readonly fastP99Ms: number;
  /** From the first publish to the last delivery of a fast event, ms. */
  readonly latestFastMs: number;
  readonly fastDelivered: number;
  /** Deliveries of any event more than 60 s after the first publish. */
  readonly deliveredAfter60s: number;
  /** Messages whose handling threw (each came back). */
  readonly batchErrors: number;
  readonly throttles: number;
}

/** Runs the storm. */
export async function runReadStorm(): Promise<ReadStormFigures> {
  const run = await runConsumerScenario({
    events: STORM_EVENTS + FAST_EVENTS,
    accounts: STORM_ACCOUNTS + FAST_ACCOUNTS,
    accountOf: (i) =>
      i < STORM_EVENTS ? i % STORM_ACCOUNTS : STORM_ACCOUNTS + ((i - STORM_EVENTS) % FAST_ACCOUNTS),
    receiver: () => fastReceiver(),
    maximumConcurrency: MAXIMUM_CONCURRENCY,
    publishOverMs: 1_000,
    stopAtDeliveryOf: (index) => index >= STORM_ACCOUNTS,
    table: { mode: { kind: 'on-demand', warmWriteUnits: 40_000 } },
  });
  const isFast = (index: number) => index >= STORM_ACCOUNTS;
  const fast = figures(run, isFast);
  let start = Number.POSITIVE_INFINITY;
  for (const at of run.publishedAt.values()) start = Math.min(start, at);
  let deliveredAfter60s = 0;
  for (const at of run.deliveredAt.values()) if (at - start > 60_000) deliveredAfter60s++;
  return {
    fastP50Ms: fast.fastP50Ms,
    fastP99Ms: fast.fastP99Ms,
    latestFastMs: fast.fastDrainedMs,
    fastDelivered: run.events.filter(
      (event) => isFast(run.accountIndex.get(event.account) ?? -1) && run.deliveredAt.has(event.id),
    ).length,
    deliveredAfter60s,
    batchErrors: run.batchErrors.length,
    throttles: fast.throttles,
  };
}

/** Prints the storm's row for `npm run bench -- simulate`. */
export async function printReadStorm(): Promise<void> {
  console.log(
    `\n## Read storm: ${STORM_EVENTS} publishes in 1 s to ${STORM_ACCOUNTS} accounts, ${FAST_EVENTS} fast events behind, concurrency ${MAXIMUM_CONCURRENCY}, table warmed for writes only\n`,
  );
  const started = performance.now();
  const storm = await runReadStorm();
  console.log(
    markdownTable(
      [
        'fast p50 (ms)',
        'fast p99 (ms)',
        'latest fast (ms)',
        'fast delivered',
        'delivered after 60 s',
        'messages that threw',
        'throttled requests',
      ],
      [
        [
          Math.round(storm.fastP50Ms),
          Math.round(storm.fastP99Ms),
          Math.round(storm.latestFastMs),
          `${storm.fastDelivered} / ${FAST_EVENTS}`,
          storm.deliveredAfter60s,
          storm.batchErrors,
          storm.throttles,
        ],
      ],
    ),
  );
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s of wall time)`);
}
