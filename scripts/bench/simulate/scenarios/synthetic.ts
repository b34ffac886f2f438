/**
 * A synthetic month-end burst to measure the engine, not Herald: N events over M accounts published in a
 * minute, consumed through the SQS and Lambda models by a minimal consumer (metered read, POST to the
 * account's receiver, metered write; a failure is postponed by ChangeMessageVisibility along Herald's
 * retry schedule and reported as a batch item failure, at most 20 attempts). It exercises every model at
 * the scale of the issue-19 table, so its wall time bounds what the real wiring will cost.
 */
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, MAX_POSTPONE_SECONDS } from '#delivery/retry-rule';
import { DynamoClient } from '../aws/dynamodb/client';
import { DynamoMeter } from '../aws/dynamodb/meter';
import { DynamoTable } from '../aws/dynamodb/table';
import { SqsEventSource, type SqsHandler } from '../aws/lambda/sqs-event-source';
import { StandardQueue } from '../aws/sqs/standard-queue';
import { Scheduler } from '../engine/scheduler';
import { meter } from '../ports/metered';
import { SimSqsClient } from '../ports/sim-sqs-client';
import { SimWebhookSender } from '../ports/sim-webhook-sender';
import { fastReceiver, hangingReceiver, type Receiver, slowReceiver } from '../receivers/receivers';

/** The burst. */
export interface SyntheticScenario {
  readonly seed?: number;
  readonly events: number;
  readonly accounts: number;
  /** Shares of accounts whose receiver hangs and answers after 3 s. */
  readonly hangingShare?: number;
  readonly slowShare?: number;
  readonly maximumConcurrency?: number;
  readonly publishOverMs?: number;
}

/** What the run cost and did. */
export interface SyntheticRun {
  readonly wallMs: number;
  readonly callbacks: number;
  readonly virtualMs: number;
  /** Virtual time until every event was delivered or gave up. */
  readonly drainedMs: number | undefined;
  readonly delivered: number;
  readonly gaveUp: number;
  readonly invocations: number;
  readonly heapMb: number;
}

/** A minimal store: one item per event, read and written through the metered layer. */
class Deliveries {
  readonly attempts = new Map<string, number>();
  async load(id: string): Promise<number> {
    return this.attempts.get(id) ?? 0;
  }
  async record(id: string): Promise<void> {
    this.attempts.set(id, (this.attempts.get(id) ?? 0) + 1);
  }
}

const URL = 'https://sqs.eu-central-1.amazonaws.com/000000000000/synthetic';

/** Runs the burst to its end (every event delivered or given up). */
export async function runSyntheticScenario(scenario: SyntheticScenario): Promise<SyntheticRun> {
  const wallStart = performance.now();
  const engine = new Scheduler({ seed: scenario.seed ?? 1 });
  const start = engine.now();
  const receivers: Receiver[] = Array.from({ length: scenario.accounts }, (_, i) => {
    const share = i / scenario.accounts;
    const hanging = scenario.hangingShare ?? 0.01;
    if (share < hanging) return hangingReceiver();
    if (share < hanging + (scenario.slowShare ?? 0.01)) return slowReceiver(3_000);
    return fastReceiver();
  });
  const queue = new StandardQueue(engine, { name: 'synthetic', visibilityTimeoutSeconds: 720 });
  const sqs = new SimSqsClient(engine, new Map([[URL, queue]])) as unknown as SQSClient;
  const table = new DynamoTable({ name: 'synthetic', mode: { kind: 'on-demand' } }, engine.now);
  const dynamo = new DynamoMeter();
  const store = new Deliveries();
  const sender = new SimWebhookSender(
    engine,
    (url) => receivers[Number(url.slice(url.lastIndexOf('/') + 1))],
  );
  let delivered = 0;
  let gaveUp = 0;

  const init = (): SqsHandler => {
    const client = new DynamoClient(engine, table, { meter: dynamo });
    const deliveries = meter<Deliveries>(store, client, 'deliveries', {
      load: (id) => ({ kind: 'read', key: `EVENT#${id}`, consistent: true }),
      record: (id) => ({ kind: 'write', key: `EVENT#${id}` }),
    });
    return async (event) => {
      const failed = await Promise.all(
        event.Records.map(async (record) => {
          const [id = '', account = '0'] = record.body.split(' ');
          const attempts = (await deliveries.load(id)) + 1;
          const result = await sender.send({
            url: `https://r.example/${account}`,
            headers: { 'webhook-id': id },
            body: '{}',
          });
          await deliveries.record(id);
          if (result.status >= 200 && result.status < 300) {
            delivered++;
            return undefined;
          }
          if (attempts >= 20) {
            gaveUp++;
            return undefined;
          }
          const wait = Math.min(DEFAULT_RETRY_SCHEDULE_SECONDS[attempts - 1] ?? 60, MAX_POSTPONE_SECONDS);
          await sqs.send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: URL,
              ReceiptHandle: record.receiptHandle,
              VisibilityTimeout: wait,
            }),
          );
          return record.messageId;
        }),
      );
      const ids = failed.filter((id): id is string => id !== undefined);
      return { batchItemFailures: ids.map((itemIdentifier) => ({ itemIdentifier })) };
    };
  };
  const source = new SqsEventSource(engine, {
    queue,
    reportBatchItemFailures: true,
    maximumConcurrency: scenario.maximumConcurrency ?? 100,
    timeoutSeconds: 120,
    init,
  });

  const spread = scenario.publishOverMs ?? 60_000;
  for (let i = 0; i < scenario.events; i += 10) {
    engine.at(start + Math.floor((i * spread) / scenario.events), () => {
      const batch = Array.from({ length: Math.min(10, scenario.events - i) }, (_, j) => ({
        body: `e${i + j} ${(i + j) % scenario.accounts}`,
      }));
      queue.sendBatch(batch);
    });
  }
  source.start();
  let drainedAt: number | undefined;
  const run = await engine.run({
    until: start + 7 * 86_400_000,
    stopWhen: () => {
      if (delivered + gaveUp < scenario.events) return false;
      drainedAt ??= engine.now();
      return true;
    },
  });
  source.stop();
  return {
    wallMs: performance.now() - wallStart,
    callbacks: engine.counts.executed,
    virtualMs: run.endedAt - start,
    drainedMs: drainedAt === undefined ? undefined : drainedAt - start,
    delivered,
    gaveUp,
    invocations: source.stats.invocations,
    heapMb: process.memoryUsage().heapUsed / 2 ** 20,
  };
}
