/**
 * The month-end burst of issue 19: `events` published in one minute over `accounts` accounts (ten per
 * organization), at each consumer maximum concurrency, with all receivers fast or with 1 % hanging and 1 %
 * slow (3 s) endpoints. A run ends when every event of the healthy accounts (fast and slow) was delivered:
 * the hanging endpoints' events are then still deferred by their circuit, which settles them over the next
 * days (not part of the drain).
 */
import { unitsPerEvent } from './cost';
import { fastReceiver, hangingReceiver, type Receiver, slowReceiver } from './receivers/receivers';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';

/** A burst's size. */
export interface BurstSize {
  readonly events: number;
  readonly accounts: number;
  readonly concurrencies: readonly number[];
  /** Publishing takes this long (default one minute). */
  readonly publishOverMs?: number;
  /**
   * The table's on-demand warm write units (default 40,000, the account quota: a table that served such a
   * peak before); a new table serves 4,000, which throttles a burst of this size (docs/simulation.md).
   */
  readonly warmWriteUnits?: number;
}

/** One row of the burst table. */
export interface BurstRow {
  readonly mix: string;
  readonly maximumConcurrency: number;
  /** First publish → last fast account's event delivered, virtual s. */
  readonly fastDrainS: number;
  /** First publish → last event of a fast or slow account delivered, virtual s. */
  readonly drainS: number;
  readonly fastP50Ms: number;
  readonly fastP99Ms: number;
  readonly invocations: number;
  readonly readUnitsPerDelivered: number;
  readonly writeUnitsPerDelivered: number;
  readonly delivered: number;
  readonly throttles: number;
  readonly publishesSentAgain: number;
  readonly wallS: number;
}

/** The two receiver mixes, by the account's index among `accounts`. */
export function burstMixes(accounts: number): Record<string, (index: number) => Receiver> {
  const hanging = Math.max(1, Math.round(accounts / 100));
  return {
    'all fast': () => fastReceiver(),
    '1 % hanging, 1 % slow': (index) =>
      index < hanging ? hangingReceiver() : index < 2 * hanging ? slowReceiver(3_000) : fastReceiver(),
  };
}

/** Runs the burst at every concurrency and mix. */
export async function runBurst(size: BurstSize, onRow?: (row: BurstRow) => void): Promise<BurstRow[]> {
  const rows: BurstRow[] = [];
  const hanging = Math.max(1, Math.round(size.accounts / 100));
  for (const [mix, receiver] of Object.entries(burstMixes(size.accounts))) {
    const bad = mix === 'all fast' ? 0 : hanging;
    for (const maximumConcurrency of size.concurrencies) {
      const run = await runConsumerScenario({
        events: size.events,
        accounts: size.accounts,
        receiver,
        maximumConcurrency,
        publishOverMs: size.publishOverMs ?? 60_000,
        stopAtDeliveryOf: (index) => index >= bad,
        table: { mode: { kind: 'on-demand', warmWriteUnits: size.warmWriteUnits ?? 40_000 } },
      });
      const fast = figures(run, (index) => index >= 2 * bad);
      const healthy = figures(run, (index) => index >= bad);
      const total = unitsPerEvent(run.dynamo, fast.delivered).at(-1);
      const row: BurstRow = {
        mix,
        maximumConcurrency,
        fastDrainS: fast.fastDrainedMs / 1000,
        drainS: healthy.fastDrainedMs / 1000,
        fastP50Ms: fast.fastP50Ms,
        fastP99Ms: fast.fastP99Ms,
        invocations: fast.invocations,
        readUnitsPerDelivered: total?.readUnits ?? Number.NaN,
        writeUnitsPerDelivered: (total?.writeUnits ?? Number.NaN) + (total?.indexWriteUnits ?? 0),
        delivered: fast.delivered,
        throttles: fast.throttles,
        publishesSentAgain: run.publish.resent,
        wallS: run.wallMs / 1000,
      };
      rows.push(row);
      onRow?.(row);
    }
  }
  return rows;
}

/** The burst as a markdown table. */
export function burstTable(rows: readonly BurstRow[]): string {
  return markdownTable(
    [
      'receivers',
      'max concurrency',
      'fast drained (s)',
      'fast + slow drained (s)',
      'fast p50 (ms)',
      'fast p99 (ms)',
      'invocations',
      'RCU / delivered',
      'WCU / delivered',
      'delivered',
      'throttled requests',
      'publishes sent again',
      'wall (s)',
    ],
    rows.map((r) => [
      r.mix,
      r.maximumConcurrency,
      r.fastDrainS,
      r.drainS,
      r.fastP50Ms,
      r.fastP99Ms,
      r.invocations,
      r.readUnitsPerDelivered,
      r.writeUnitsPerDelivered,
      r.delivered,
      r.throttles,
      r.publishesSentAgain,
      r.wallS,
    ]),
    2,
  );
}

/** Prints the burst table of issue 19 (100,000 events over 1,000 accounts by default). */
export async function printBurst(size: BurstSize): Promise<void> {
  console.log(
    `\n## Month-end burst: ${size.events.toLocaleString('en-US')} events over ${size.accounts.toLocaleString('en-US')} accounts published in ${(size.publishOverMs ?? 60_000) / 1000} s, until every healthy account's event was delivered (docs/simulation.md)\n`,
  );
  const rows = await runBurst(size, (row) =>
    console.error(`  ${row.mix}, concurrency ${row.maximumConcurrency}: ${row.wallS.toFixed(0)} s wall`),
  );
  console.log(burstTable(rows));
}
