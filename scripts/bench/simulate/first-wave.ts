/**
 * The first wave of issue 19 at AWS scale: a backlog of 15 messages per unit of `maximumConcurrency` for
 * accounts whose receiver then hangs (or answers after 3 s), and 200 events of 50 fast accounts published
 * right behind it. The fast accounts' publish → delivery p50/p99 is compared with the same burst whose
 * backlog goes to fast receivers (the baseline), with the deployed consumer (a held invocation pulls more
 * messages itself) and without that pull (the consumer before it). How the backlog is shaped at each
 * concurrency, and why, is {@link firstWaveShapes}.
 */
import { fastReceiver, hangingReceiver, type Receiver, slowReceiver } from './receivers/receivers';
import { markdownTable } from './report';
import { runConsumerScenario } from './scenarios/consumer';
import { figures } from './scenarios/consumer-run';

/** The ten receivers that start hanging or slowing (endpoints 0–9), and the fast accounts behind them. */
const BAD_RECEIVERS = 10;
/** The fast accounts behind the wave and their events (the read storm puts the same behind its storm). */
export const FAST_ACCOUNTS = 50;
/** See {@link FAST_ACCOUNTS}. */
export const FAST_EVENTS = 200;
const BACKLOG_PER_CONCURRENCY = 15;
/** Backlog accounts per unit of concurrency beyond the ten (one per ten: 100 at 1,000). */
const CONCURRENCY_PER_BAD_ACCOUNT = 10;
/** Most backlog publishes per second in all: ~5 write units each, well under the table's 40,000. */
const BACKLOG_PER_SECOND = 5_000;
/** From this concurrency on, the wave also runs with the event source already scaled up. */
const PRESCALED_FROM = 1_000;

/** How the backlog is published at one concurrency (docs/measurements/simulation.md, the first wave). */
export interface FirstWaveShape {
  readonly backlog: number;
  /** Accounts of the backlog (indexes 0 to this − 1): account `i` is behind receiver `i % 10`. */
  readonly badAccounts: number;
  readonly publishOverMs: number;
  /** Concurrent batches the event source starts with; undefined: Lambda's 5. */
  readonly startConcurrency: number | undefined;
}

/**
 * The backlog at concurrency `c`: 15 × `c` events over one account per ten units of concurrency (at least
 * ten), published over whole seconds at no more than 5,000 a second, behind ten receivers whatever the
 * number of accounts. At 20 and 100 this is the shape measured before: ten accounts, one second (30 and
 * 150 publishes a second per account). At 1,000: 100 accounts over 3 s (50 a second each), because every
 * account has one sequence: 1,500 a second to one account refuses most publishes and the contention's
 * reads and writes throttle the whole table, and 15,000 publishes in one second need more write units than
 * the table's quota. From 1,000 on the wave runs twice: from a cold mapping (Lambda's 5 batches, +5 a
 * second: it would take 199 s to reach 1,000, so the wave never has more than about 100 batches in flight
 * and the fast events wait behind the backlog) and with the event source already scaled up to its maximum
 * by earlier traffic (every slot a bad message can hold is there). docs/measurements/simulation.md has the
 * runs.
 */
export function firstWaveShapes(c: number): FirstWaveShape[] {
  const backlog = BACKLOG_PER_CONCURRENCY * c;
  const publishOverMs = Math.max(1_000, Math.ceil(backlog / BACKLOG_PER_SECOND) * 1_000);
  const shape = {
    backlog,
    badAccounts: Math.max(BAD_RECEIVERS, Math.ceil(c / CONCURRENCY_PER_BAD_ACCOUNT)),
    publishOverMs,
    startConcurrency: undefined,
  };
  return c >= PRESCALED_FROM ? [shape, { ...shape, startConcurrency: c }] : [shape];
}

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
  /** Fast events delivered (of {@link FAST_EVENTS}): a publish the client gave up on is missing here. */
  readonly fastDelivered: number;
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
    for (const shape of firstWaveShapes(maximumConcurrency)) {
      rows.push(...(await runShape(maximumConcurrency, shape, onRow)));
    }
  }
  return rows;
}

/** The rows of one shape: each backlog kind with and without the pull. */
async function runShape(
  maximumConcurrency: number,
  { backlog, badAccounts, publishOverMs, startConcurrency }: FirstWaveShape,
  onRow?: (row: FirstWaveRow) => void,
): Promise<FirstWaveRow[]> {
  const rows: FirstWaveRow[] = [];
  const accounts = badAccounts > BAD_RECEIVERS ? ` (${badAccounts} accounts)` : '';
  const start =
    startConcurrency !== undefined ? ', scaled up' : maximumConcurrency >= PRESCALED_FROM ? ', cold' : '';
  for (const pull of [true, false]) {
    let baseline = Number.NaN;
    for (const [name, bad] of Object.entries(BACKLOGS)) {
      const run = await runConsumerScenario({
        events: backlog + FAST_EVENTS,
        accounts: badAccounts + FAST_ACCOUNTS,
        accountOf: (i) => (i < backlog ? i % badAccounts : badAccounts + ((i - backlog) % FAST_ACCOUNTS)),
        endpointOf: (index) => (index < badAccounts ? index % BAD_RECEIVERS : index),
        receiver: (endpoint) => (endpoint < BAD_RECEIVERS ? bad() : fastReceiver()),
        maximumConcurrency,
        ...(startConcurrency === undefined ? {} : { startConcurrency }),
        publishOverMs,
        pullWhenHeld: pull,
        stopAtDeliveryOf: (index) => index >= badAccounts,
        // Warmed for the month-end both ways (AWS's warm throughput has a read and a write figure).
        table: { mode: { kind: 'on-demand', warmWriteUnits: 40_000, warmReadUnits: 40_000 } },
      });
      const fast = figures(run, (index) => index >= badAccounts);
      if (name === 'fast (baseline)') baseline = fast.fastP50Ms;
      const row: FirstWaveRow = {
        maximumConcurrency,
        backlog: `${backlog} × ${name}${accounts}${start}`,
        pull,
        fastP50Ms: fast.fastP50Ms,
        fastP99Ms: fast.fastP99Ms,
        ratio: fast.fastP50Ms / baseline,
        invocations: fast.invocations,
        fastDelivered: run.events.filter(
          (event) =>
            (run.accountIndex.get(event.account) ?? -1) >= badAccounts && run.deliveredAt.has(event.id),
        ).length,
      };
      rows.push(row);
      onRow?.(row);
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
      'fast delivered',
    ],
    rows.map((row) => [
      row.maximumConcurrency,
      row.backlog,
      row.pull ? 'yes (deployed)' : 'no (before)',
      Math.round(row.fastP50Ms),
      Math.round(row.fastP99Ms),
      row.ratio.toFixed(2),
      row.invocations,
      `${row.fastDelivered} / ${FAST_EVENTS}`,
    ]),
  );
}

/** Prints the first-wave table for `npm run bench -- simulate`. */
export async function printFirstWave(concurrencies: readonly number[]): Promise<void> {
  console.log(
    `\n## First wave: ${BACKLOG_PER_CONCURRENCY} × concurrency events to accounts behind ten receivers that hang or slow, ${FAST_EVENTS} fast events right behind (docs/simulation.md)\n`,
  );
  const started = performance.now();
  console.log(firstWaveTable(await runFirstWave(concurrencies)));
  console.log(`\nWall time of the first wave: ${Math.round((performance.now() - started) / 1000)} s.`);
}
