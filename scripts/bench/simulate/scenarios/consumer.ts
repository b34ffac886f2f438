/**
 * The delivery consumer as deployed, in virtual time: Herald's real `deliverBatch` (and the real SQS
 * adapter and record mapping) behind the Lambda SQS event source model, on the delivery queue model with
 * its dead-letter queue, over metered in-memory ports and receiver models. Publishing and the stream
 * forwarder are stubs here (events are stored as published and forwarded once a second, unmetered) until
 * issue 15's wiring runs them too. The in-memory ports are Herald's test fakes, borrowed until that wiring
 * gives them a home outside `test/`.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { InMemoryDirectoryStore } from '#adapters/memory/directory-store';
import { InMemoryEndpointHealthStore } from '#adapters/memory/endpoint-health-store';
import { InMemoryEventStore } from '#adapters/memory/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { toQueueMessages } from '#adapters/sqs/sqs-records';
import {
  CONSUMER_EVENT_SOURCE,
  CONSUMER_TIMEOUT_SECONDS,
  DEAD_LETTER_QUEUE,
  DELIVERY_QUEUE,
  FORWARDER_EVENT_SOURCE,
  MAX_ATTEMPTS,
} from '#config/delivery';
import { STATUS_INDEXES } from '#config/storage';
import { DEFAULT_HEALTH_POLICY } from '#domain/delivery/endpoint-health';
import { REPLACE_AFTER_AGE_SECONDS, REPLACE_AT_RECEIVE_COUNT } from '#domain/delivery/postponement';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#domain/delivery/retry-schedule';
import type { EventRef } from '#domain/model';
import type { DirectoryStore, EndpointHealthStore, EventStore } from '#domain/ports';
import { webhookBody } from '#domain/webhook-body';
import { type BatchDeps, deliverBatch } from '#use-cases/delivery/deliver-batch';
import { SAMPLE_PAYLOAD } from '../../capacity';
import { DynamoClient } from '../aws/dynamodb/client';
import { DynamoMeter } from '../aws/dynamodb/meter';
import { DynamoTable, type TableConfig } from '../aws/dynamodb/table';
import { SqsEventSource, type SqsHandler } from '../aws/lambda/sqs-event-source';
import { StandardQueue } from '../aws/sqs/standard-queue';
import type { Latency } from '../engine/random';
import { Scheduler } from '../engine/scheduler';
import { meter } from '../ports/metered';
import { SimSqsClient } from '../ports/sim-sqs-client';
import { SimWebhookSender } from '../ports/sim-webhook-sender';
import { fastReceiver, type Receiver } from '../receivers/receivers';
import { directoryCharges, EventItemSizes, eventStoreCharges, healthCharges } from './consumer-charges';
import { type ConsumerRun, observeRun } from './consumer-run';

/** A consumer scenario. */
export interface ConsumerScenario {
  readonly seed?: number;
  readonly events: number;
  /** Accounts, each with its own endpoint; events go round-robin over them. */
  readonly accounts: number;
  readonly accountsPerOrganization?: number;
  /** The receiver behind account `index` (default: a fast one for every account). */
  readonly receiver?: (index: number) => Receiver;
  /** The event source's maximum concurrency (the stack's `consumerMaxConcurrency`, default 20). */
  readonly maximumConcurrency?: number;
  /** Publishes are spread evenly over this long (default 1 s). */
  readonly publishOverMs?: number;
  readonly coldStart?: Latency;
  readonly table?: Partial<Omit<TableConfig, 'name' | 'indexes'>>;
  /** Safety stop in virtual time (default 10 days). */
  readonly maxVirtualMs?: number;
}

const QUEUE_URL = 'https://sqs.eu-central-1.amazonaws.com/000000000000/herald-delivery';
const DLQ_URL = 'https://sqs.eu-central-1.amazonaws.com/000000000000/herald-delivery-dlq';

/** Runs a scenario until every event has settled (and the queue is empty) or the safety stop. */
export async function runConsumerScenario(scenario: ConsumerScenario): Promise<ConsumerRun> {
  const wallStart = performance.now();
  const engine = new Scheduler({ seed: scenario.seed ?? 1 });
  const start = engine.now();
  const eventStore = new InMemoryEventStore();
  const healthStore = new InMemoryEndpointHealthStore();
  const directoryStore = new InMemoryDirectoryStore(healthStore);
  const receivers: Receiver[] = [];
  const receiverByUrl = new Map<string, Receiver>();
  const ibans: string[] = [];
  const perOrg = scenario.accountsPerOrganization ?? 10;
  for (let i = 0; i < scenario.accounts; i++) {
    const orgId = `org-${Math.floor(i / perOrg)}`;
    if (i % perOrg === 0) directoryStore.addOrganization(orgId);
    const iban = `SIM${String(i).padStart(8, '0')}`;
    const webhookUrl = `https://receiver-${i}.example.com/herald`;
    directoryStore.addAccount({ iban, orgId, webhookUrl });
    const receiver = scenario.receiver?.(i) ?? fastReceiver();
    receivers.push(receiver);
    receiverByUrl.set(webhookUrl, receiver);
    ibans.push(iban);
  }

  const table = new DynamoTable(
    {
      name: 'herald-events',
      mode: { kind: 'on-demand' },
      ...scenario.table,
      indexes: { 'by-org': {}, [STATUS_INDEXES.failed.name]: {}, [STATUS_INDEXES.skipped.name]: {} },
    },
    engine.now,
  );
  const dynamo = new DynamoMeter();
  const deadLetters = new StandardQueue(engine, {
    name: 'herald-delivery-dlq',
    retentionSeconds: DEAD_LETTER_QUEUE.retentionPeriodSeconds,
    visibilityTimeoutSeconds: DEAD_LETTER_QUEUE.visibilityTimeoutSeconds,
  });
  const queue = new StandardQueue(engine, {
    name: 'herald-delivery',
    visibilityTimeoutSeconds: DELIVERY_QUEUE.visibilityTimeoutSeconds,
    retentionSeconds: DELIVERY_QUEUE.retentionPeriodSeconds,
    receiveWaitSeconds: DELIVERY_QUEUE.receiveWaitTimeSeconds,
    redrive: { deadLetter: deadLetters, maxReceiveCount: DELIVERY_QUEUE.maxReceiveCount },
  });
  const sqs = new SimSqsClient(
    engine,
    new Map([
      [QUEUE_URL, queue],
      [DLQ_URL, deadLetters],
    ]),
  ) as unknown as SQSClient;
  const observer = observeRun(engine, eventStore);
  const sender = new SimWebhookSender(engine, (url) => receiverByUrl.get(url), { onResult: observer.sent });

  const eventCharges = eventStoreCharges((id) => eventStore.events.get(id), new EventItemSizes());
  /** Module init of the consumer: what `deliver-webhooks.ts` builds at module scope, per environment. */
  const init = (): SqsHandler => {
    const client = new DynamoClient(engine, table, { meter: dynamo });
    const deps: BatchDeps = {
      events: meter<EventStore>(eventStore, client, 'events', eventCharges),
      directory: meter<DirectoryStore>(directoryStore, client, 'directory', directoryCharges),
      health: meter<EndpointHealthStore>(healthStore, client, 'health', healthCharges),
      healthPolicy: DEFAULT_HEALTH_POLICY,
      sender,
      queue: new SqsDeliveryQueue(sqs, QUEUE_URL),
      schedule: DEFAULT_RETRY_SCHEDULE_SECONDS,
      maxAttempts: MAX_ATTEMPTS,
      urlPolicy: 'public-https',
      leaseMs: CONSUMER_TIMEOUT_SECONDS * 1000,
      replaceAtReceiveCount: REPLACE_AT_RECEIVE_COUNT,
      replaceAfterAgeSeconds: REPLACE_AFTER_AGE_SECONDS,
      now: engine.now,
      random: () => engine.random.float(),
      observe: observer.outcome,
      observeError: observer.error,
    };
    return async (event) => {
      const keep = await deliverBatch(deps, toQueueMessages(event.Records));
      return { batchItemFailures: keep.map((itemIdentifier) => ({ itemIdentifier })) };
    };
  };
  const source = new SqsEventSource(engine, {
    queue,
    batchSize: CONSUMER_EVENT_SOURCE.batchSize,
    reportBatchItemFailures: CONSUMER_EVENT_SOURCE.reportBatchItemFailures,
    maximumConcurrency: scenario.maximumConcurrency ?? 20,
    timeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
    coldStart: scenario.coldStart ?? 250,
    init,
  });

  // Publish (stub): store each event at its publish time; the forwarder (stub) sends what the stream
  // gathered once per batching window, through the real queue adapter.
  const forwarder = new SqsDeliveryQueue(sqs, QUEUE_URL);
  const gathered: EventRef[] = [];
  const sequences = new Map<string, number>();
  const spread = scenario.publishOverMs ?? 1_000;
  for (let i = 0; i < scenario.events; i++) {
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    const account = ibans[i % scenario.accounts] as string;
    engine.at(start + Math.floor((i * spread) / scenario.events), () => {
      const triggeredAt = new Date(engine.now()).toISOString();
      const orgId = directoryStore.accounts.get(account)?.orgId ?? 'org-0';
      const sequence = (sequences.get(account) ?? 0) + 1;
      sequences.set(account, sequence);
      const body = webhookBody({
        id,
        sequence,
        type: 'credit_transfer_status_change',
        account,
        triggeredAt,
        payloadJson: JSON.stringify(SAMPLE_PAYLOAD),
        baseUrl: 'https://api.herald.example',
      });
      eventStore.seed({ id, orgId, account, sequence, triggeredAt, body });
      observer.published(id);
      gathered.push({ id, orgId, account, sequence });
    });
  }
  const windowMs = FORWARDER_EVENT_SOURCE.maxBatchingWindowSeconds * 1000;
  const forward = (): void => {
    const ids = gathered.splice(0);
    if (ids.length > 0) engine.spawn(() => forwarder.enqueue(ids));
    if (observer.publishedCount < scenario.events || gathered.length > 0) engine.after(windowMs, forward);
  };
  engine.after(windowMs, forward);

  source.start();
  const done = observer.watch(scenario.events, queue);
  const run = await engine.run({ until: start + (scenario.maxVirtualMs ?? 10 * 86_400_000), stopWhen: done });
  source.stop();
  return observer.report({
    run,
    start,
    wallMs: performance.now() - wallStart,
    receivers,
    ibans,
    queue,
    deadLetters,
    source,
    dynamo,
  });
}
