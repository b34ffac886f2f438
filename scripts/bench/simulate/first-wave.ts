/**
 * The first wave of issue 19 at AWS scale: a backlog of 15 messages per unit of `maximumConcurrency` for
 * ten accounts whose receiver then hangs (or answers after 3 s), published in one second, and 200 events
 * of 50 fast accounts published right behind it. The fast accounts' publish → delivery p50/p99 is
 * compared with the same burst whose backlog goes to fast receivers (the baseline), with the deployed
 * consumer (a held invocation pulls more messages itself) and without that pull (the consumer before it).
 */
import { fastReceiver, hangingReceiver, type Receiver, slowReceiver } from './receivers/receivers';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';

/** Accounts of the bad backlog (indexes 0–9) and of the fast events behind it (10–59). */
const BAD_ACCOUNTS = 10;
const FAST_ACCOUNTS = 50;
const FAST_EVENTS = 200;
const BACKLOG_PER_CONCURRENCY = 15;

/** One row: the fast accounts' latency behind a backlog. */
export interface FirstWaveRow {
  readonly maximumConcurrency: number;
  readonly backlog: string;
  readonly pull: boolean;
  readonly fastP50Ms: number;
  readonly fastP99Ms: number;
  /** p50 over the baseline's p50 (same concurrency, backlog to fast receivers, same consumer). */
  readonly ratio: number;
  readonly invocations: number;
}

const BACKLOGS: Record<string, () => Receiver> = {
  'fast (baseline)': () => fastReceiver(),
  hanging: () => hangingReceiver(),
  'slow (3 s)': () => slowReceiver(3_000),
};

/** Runs every backlog kind with and without the pull at each concurrency. */
export async function runFirstWave(
  concurrencies: readonly number[],
  onRow?: (row: FirstWaveRow) => void,
): Promise<FirstWaveRow[]> {
  const rows: FirstWaveRow[] = [];
  for (const maximumConcurrency of concurrencies) {
    const backlog = BACKLOG_PER_CONCURRENCY * maximumConcurrency;
    for (const pull of [true, false]) {
      let baseline = Number.NaN;
      for (const [name, bad] of Object.entries(BACKLOGS)) {
        const run = await runConsumerScenario({
          events: backlog + FAST_EVENTS,
          accounts: BAD_ACCOUNTS + FAST_ACCOUNTS,
          accountOf: (i) => (i < backlog ? i % BAD_ACCOUNTS : BAD_ACCOUNTS + ((i - backlog) % FAST_ACCOUNTS)),
          receiver: (index) => (index < BAD_ACCOUNTS ? bad() : fastReceiver()),
          maximumConcurrency,
          publishOverMs: 1_000,
          pullWhenHeld: pull,
          stopAtDeliveryOf: (index) => index >= BAD_ACCOUNTS,
          table: { mode: { kind: 'on-demand', warmWriteUnits: 40_000 } },
        });
        const fast = figures(run, (index) => index >= BAD_ACCOUNTS);
        if (name === 'fast (baseline)') baseline = fast.fastP50Ms;
        const row: FirstWaveRow = {
          maximumConcurrency,
          backlog: `${backlog} × ${name}`,
          pull,
          fastP50Ms: fast.fastP50Ms,
          fastP99Ms: fast.fastP99Ms,
          ratio: fast.fastP50Ms / baseline,
          invocations: fast.invocations,
        };
        rows.push(row);
        onRow?.(row);
      }
    }
  }
  return rows;
}

/** The rows as a markdown table. */
export function firstWaveTable(rows: readonly FirstWaveRow[]): string {
  return markdownTable(
    [
      'concurrency',
      'backlog',
      'held invocation pulls',
      'fast p50 (ms)',
      'fast p99 (ms)',
      'p50 / baseline',
      'invocations',
    ],
    rows.map((row) => [
      row.maximumConcurrency,
      row.backlog,
      row.pull ? 'yes (deployed)' : 'no (before)',
      Math.round(row.fastP50Ms),
      Math.round(row.fastP99Ms),
      row.ratio.toFixed(2),
      row.invocations,
    ]),
  );
}

/** Prints the first-wave table for `npm run bench -- simulate`. */
export async function printFirstWave(concurrencies: readonly number[]): Promise<void> {
  console.log(
    `\n## First wave: ${BACKLOG_PER_CONCURRENCY} × concurrency events to ten accounts whose receiver hangs or slows, ${FAST_EVENTS} fast events right behind (published within 1 s)\n`,
  );
  console.log(firstWaveTable(await runFirstWave(concurrencies)));
}
