/**
 * `npm run bench -- isolation-burst`: the first-wave stall. 300 events are published to ten accounts
 * that share one receiver, then 60 events to a fast receiver's ten accounts right behind them, ten
 * publishes at a time, so the fast events queue behind the backlog's first wave. The baseline sends the backlog to a healthy receiver (the fast events' normal
 * p50 under a burst); the other rows send it to a receiver that answers after 3 s, hangs past the 10 s
 * timeout, or answers 500. `npm run bench -- isolation` samples serially, which hides the first wave.
 * One local runtime with the default settings; each bad endpoint is disabled when its row ends, so its
 * backlog settles `skipped` instead of loading the next row. The four rows run in `BURST_ROUNDS` rounds
 * (default 3), interleaved so the machine's drift touches every row alike, and each row's samples are
 * pooled: one round's 60 samples at one moment vary widely between runs, even on an idle machine.
 *
 * With the `endpoint` neighbour (`npm run bench -- isolation-burst-endpoints`), the backlog's receiver is
 * instead the second endpoint of ten accounts whose default endpoint is the fast receiver, and the fast
 * events go to those same accounts right behind the backlog: every event goes to both endpoints (fanned
 * out), so the fast receiver's events queue behind a first wave that is half the bad endpoint's.
 */
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import type { EndpointAddress } from '#domain/endpoints/address';
import { ibanWithCheckDigits } from '#domain/iban';
import { createPublisher, type Publisher } from '#lambdas/publisher';
import type { LocalEndpoints } from '#local/emulators';
import { type LocalRuntime, startLocalRuntime } from '#local/runtime';
import { SAMPLE_PAYLOAD } from './capacity';
import {
  account,
  type BadReceiver,
  badHandler,
  FAST_ACCOUNT,
  healthyHandler,
  listen,
  type Neighbour,
  percentile,
  publishAgainWhenBusy,
  twoEndpoints,
} from './isolation';

/** One row: the fast events' latencies while the backlog goes to `scenario`'s receiver, every round pooled. */
export interface BurstRow {
  readonly scenario: 'baseline' | BadReceiver;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** p50 over the baseline's p50 (1 for the baseline itself). */
  readonly ratio: number;
  /** Each round's own p50, in order. */
  readonly roundP50Ms: readonly number[];
  /** Requests the backlog's receiver got, per round (the first wave's attempts and their retries). */
  readonly backlogRequests: readonly number[];
  readonly seconds: number;
}

/** What one round of one row measured. */
interface BurstSample {
  readonly latencies: readonly number[];
  readonly backlogRequests: number;
  readonly seconds: number;
}

const SCENARIOS = ['baseline', 'slow-3s', 'hang', 'error-500'] as const;

const BACKLOG = 300;
const FAST = 60;
/**
 * Publishes in flight at once, for the backlog and for the fast events. More to one account mostly
 * collide on its sequence (BusyError) and are sent again.
 */
const PUBLISH_CONCURRENCY = 10;
const SAMPLE_CAP_MS = 120_000;
/** Ten valid IBANs (`DE…` with a shared bank code), the `n`-th group of ten. */
function tenAccounts(group: number): string[] {
  return Array.from({ length: 10 }, (_, i) =>
    ibanWithCheckDigits('DE', `3704004405320${String(group).padStart(2, '0')}${String(i).padStart(3, '0')}`),
  );
}

/**
 * The fast receiver's accounts and each row's backlog accounts: ten each, published round-robin, so the
 * ten publishes in flight take different accounts' sequences instead of contending for one (one account
 * takes only a few publishes a second under contention, which would spread the backlog out over a
 * minute and hide the first wave). The backlog's ten accounts share one receiver, as one bank's
 * accounts share its endpoint; every round and row has its own (a bad row's are disabled when it ends).
 */
const FAST_ACCOUNTS = [FAST_ACCOUNT, ...tenAccounts(1).slice(1)];
/** From group 20: group 13's first account is FAST_ACCOUNT itself. */
const BACKLOG_FIRST_GROUP = 20;
/** Two-digit groups from 20 leave room for ten rounds of four rows. */
const MAX_ROUNDS = 10;
const backlogAccounts = (round: number, row: number) =>
  tenAccounts(BACKLOG_FIRST_GROUP + round * SCENARIOS.length + row);

/** Runs the baseline and each bad receiver on one runtime, `rounds` times; reports the pooled rows. */
export async function measureBurstIsolation(
  endpoints: LocalEndpoints,
  onRow: (row: BurstRow) => void,
  neighbour: Neighbour = 'account',
  rounds = Number(process.env.BURST_ROUNDS ?? 3),
): Promise<void> {
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > MAX_ROUNDS) {
    throw new Error(`BURST_ROUNDS must be a whole number from 1 to ${MAX_ROUNDS}, not ${rounds}`);
  }
  const arrivals = new Map<string, number>();
  const fast = await listen((req, res) => {
    arrivals.set(String(req.headers['webhook-id']), performance.now());
    healthyHandler(req, res);
  });
  const runtime = await startLocalRuntime({ endpoints, prefix: `bench-burst-${Date.now().toString(36)}` });
  const samples = new Map<BurstRow['scenario'], BurstSample[]>(SCENARIOS.map((s) => [s, []]));
  try {
    if (neighbour === 'account') {
      for (const iban of FAST_ACCOUNTS) await account(runtime, fast.url, iban);
    }
    for (let round = 0; round < rounds; round++) {
      for (const [row, scenario] of SCENARIOS.entries()) {
        const backlog = backlogAccounts(round, row);
        const seed = neighbour === 'account' ? undefined : fast.url;
        samples.get(scenario)?.push(await runBurst(runtime, arrivals, scenario, backlog, seed));
        await queueSettled(runtime.queueUrl);
      }
    }
  } finally {
    await runtime.stop();
    fast.server.close();
  }
  let baseline: number | undefined;
  for (const scenario of SCENARIOS) {
    const rows = samples.get(scenario) ?? [];
    const pooled = rows.flatMap((sample) => sample.latencies);
    const p50Ms = ofUnsorted(pooled, 50);
    baseline ??= p50Ms;
    onRow({
      scenario,
      p50Ms,
      p95Ms: ofUnsorted(pooled, 95),
      ratio: Math.round((p50Ms / baseline) * 100) / 100,
      roundP50Ms: rows.map((sample) => ofUnsorted(sample.latencies, 50)),
      backlogRequests: rows.map((sample) => sample.backlogRequests),
      seconds: rows.reduce((sum, sample) => sum + sample.seconds, 0),
    });
  }
}

/** `percentile` of values in any order (it takes them sorted). */
const ofUnsorted = (values: readonly number[], p: number) =>
  percentile(
    [...values].sort((a, b) => a - b),
    p,
  );

const SETTLE_CAP_MS = 120_000;

/**
 * Waits until the delivery queue holds no message (visible, in flight or delayed), at most
 * `SETTLE_CAP_MS`: a row's backlog left deferred when it ends (its endpoint now disabled) comes back and
 * settles `skipped`, and would otherwise land on the next row's fast events, measuring one receiver's
 * cost in another's row.
 */
async function queueSettled(queueUrl: string): Promise<void> {
  const sqs = createSqsClient();
  const deadline = performance.now() + SETTLE_CAP_MS;
  const names = [
    'ApproximateNumberOfMessages',
    'ApproximateNumberOfMessagesNotVisible',
    'ApproximateNumberOfMessagesDelayed',
  ] as const;
  while (performance.now() < deadline) {
    const found = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...names] }),
    );
    const left = names.reduce((sum, name) => sum + Number(found.Attributes?.[name] ?? 0), 0);
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  console.error(`isolation-burst: the queue still held messages after ${SETTLE_CAP_MS / 1000} s`);
}

/**
 * Publishes `count` events, `PUBLISH_CONCURRENCY` at a time, the i-th to `accounts[i % length]`; answers
 * each id with its send time.
 */
async function publishMany(
  publish: Publisher,
  accounts: readonly string[],
  count: number,
): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  for (let start = 0; start < count; start += PUBLISH_CONCURRENCY) {
    await Promise.all(
      Array.from({ length: Math.min(PUBLISH_CONCURRENCY, count - start) }, async (_, i) => {
        const at = performance.now();
        const input = {
          account: accounts[(start + i) % accounts.length] ?? '',
          type: 'credit_transfer_status_change',
          payload: SAMPLE_PAYLOAD,
        };
        const { id } = await publishAgainWhenBusy(publish, input);
        sent.set(id, at);
      }),
    );
  }
  return sent;
}

/**
 * One round of one row. With `fastUrl` (the `endpoint` neighbour), the backlog's accounts have their
 * default endpoint there and a second one at the row's receiver, and the fast events go to them too.
 */
async function runBurst(
  runtime: LocalRuntime,
  arrivals: ReadonlyMap<string, number>,
  scenario: BurstRow['scenario'],
  backlogAccounts: readonly string[],
  fastUrl?: string,
): Promise<BurstSample> {
  const receiver = await listen(scenario === 'baseline' ? healthyHandler : badHandler(scenario));
  const client = createDocumentClient();
  const health = new DynamoEndpointHealthStore(client, runtime.tableName);
  const backlogEndpoints: EndpointAddress[] = [];
  try {
    const publish = createPublisher({ tableName: runtime.tableName, baseUrl: runtime.baseUrl, client });
    for (const iban of backlogAccounts) {
      backlogEndpoints.push(
        fastUrl === undefined
          ? { iban, orgId: await account(runtime, receiver.url, iban) }
          : await twoEndpoints(runtime, fastUrl, receiver.url, iban),
      );
    }
    const started = performance.now();
    // The whole backlog first, then the fast events right behind it, ten at a time.
    await publishMany(publish, backlogAccounts, BACKLOG);
    const sent = await publishMany(publish, fastUrl === undefined ? FAST_ACCOUNTS : backlogAccounts, FAST);
    // A fast event that never arrives counts as the cap, so a stuck pipeline shows instead of hanging the bench.
    const deadline = performance.now() + SAMPLE_CAP_MS;
    while ([...sent.keys()].some((id) => !arrivals.has(id)) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return {
      latencies: [...sent].map(([id, at]) => (arrivals.get(id) ?? at + SAMPLE_CAP_MS) - at),
      backlogRequests: receiver.requests(),
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    // The backlog left settles `skipped` as its messages come back, instead of loading the next row.
    const at = new Date().toISOString();
    for (const endpoint of backlogEndpoints) await health.disable(endpoint, { at, reason: 'bench row over' });
    // Hanging connections would keep close() waiting: end them first.
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
}
