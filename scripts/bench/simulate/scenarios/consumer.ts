/**
 * Herald end to end, in virtual time: clients publish through the real `recordEvent` (`publisher.ts`),
 * the table's stream feeds the forwarder (`forwarder.ts`, the real queue adapter), the delivery consumer
 * runs the real `deliverBatch` (with the real endpoint health and circuit breaker) behind the Lambda SQS
 * event source model, and the dead-letter reconciler runs the real `reconcileBatch` on the dead-letter
 * queue; every store call is metered against the DynamoDB model (`deployment.ts`).
 */

import { DEFAULT_TIMEOUTS } from '#adapters/http/http-webhook-sender';
import { toQueueMessages } from '#adapters/sqs/sqs-records';
import {
  CONSUMER_EVENT_SOURCE,
  CONSUMER_TIMEOUT_SECONDS,
  MAX_ATTEMPTS,
  PULL_WHEN_HELD,
  RECONCILER_EVENT_SOURCE,
} from '#config/delivery';
import { reconcileBatch } from '#delivery/dead-letter';
import { type BatchDeps, deliverBatch } from '#delivery/deliver-batch';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { pullSettings } from '#delivery/held-invocation-rule';
import { REPLACE_AFTER_AGE_SECONDS, REPLACE_AT_RECEIVE_COUNT } from '#delivery/postponement-rule';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#delivery/retry-rule';
import type { QueueMessage } from '#domain/ports';
import { SAMPLE_PAYLOAD } from '../../capacity';
import { SqsEventSource, type SqsHandler } from '../aws/lambda/sqs-event-source';
import { Scheduler } from '../engine/scheduler';
import { SimWebhookSender } from '../ports/sim-webhook-sender';
import { fastReceiver, type Receiver } from '../receivers/receivers';
import { type ConsumerRun, observeRun } from './consumer-run';
import {
  type ConsumerScenario,
  scenarioEndpointId,
  scenarioEndpointUrl,
  scenarioEventId,
  scenarioIban,
} from './consumer-scenario';
import { deploy } from './deployment';
import { Forwarder } from './forwarder';
import { Publisher } from './publisher';
import { SharedCpu } from './shared-cpu';

/** Runs a scenario until every event has settled (and the queue is empty) or the safety stop. */
export async function runConsumerScenario(scenario: ConsumerScenario): Promise<ConsumerRun> {
  const wallStart = performance.now();
  const engine = new Scheduler({ seed: scenario.seed ?? 1 });
  const start = engine.now();
  const deployment = deploy(engine, scenario);
  /** By account index: its endpoint's receiver (shared by the accounts of one endpoint). */
  const receivers: Receiver[] = [];
  const receiverByUrl = new Map<string, Receiver>();
  const ibans: string[] = [];
  /** By account index: the URLs of its endpoints whose delivery a run stopping at delivery waits for. */
  const awaitedUrls: string[][] = [];
  const receiverAt = (endpoint: number) => {
    const url = scenarioEndpointUrl(endpoint);
    let receiver = receiverByUrl.get(url);
    if (receiver === undefined) {
      receiver = scenario.receiver?.(endpoint) ?? fastReceiver();
      receiverByUrl.set(url, receiver);
    }
    return { url, receiver };
  };
  const perOrg = scenario.accountsPerOrganization ?? 10;
  const extras = scenario.extraEndpoints ?? 0;
  for (let i = 0; i < scenario.accounts; i++) {
    const orgId = `org-${Math.floor(i / perOrg)}`;
    if (i % perOrg === 0) deployment.directory.addOrganization(orgId);
    const iban = scenarioIban(i);
    const endpoints = [scenario.endpointOf?.(i) ?? i];
    for (let j = 0; j < extras; j++) endpoints.push(scenario.accounts + i * extras + j);
    const [first, ...rest] = endpoints.map(receiverAt);
    if (!first) throw new Error('an account without its endpoint');
    deployment.directory.addAccount({
      iban,
      orgId,
      webhookUrl: first.url,
      endpointId: scenarioEndpointId(i),
    });
    for (const [j, { url }] of rest.entries()) {
      const id = scenarioEndpointId(scenario.accounts + i * extras + j);
      await deployment.endpoints.addEndpoint({
        iban,
        orgId,
        id,
        url,
        createdAt: new Date(start).toISOString(),
      });
    }
    receivers.push(first.receiver);
    awaitedUrls.push(
      endpoints.filter((e) => scenario.awaitEndpoint?.(e) ?? true).map((e) => receiverAt(e).url),
    );
    ibans.push(iban);
  }

  const observer = observeRun(engine, deployment.events);
  const cpu = scenario.localCpu ? new SharedCpu(engine, scenario.localCpu.share) : undefined;
  const sender = new SimWebhookSender(engine, (url) => receiverByUrl.get(url), { onResult: observer.sent });
  /** Module init of the consumer: what `deliver-webhooks.ts` builds at module scope, per environment. */
  const consumerInit = (): SqsHandler => {
    const ports = deployment.ports('consumer');
    const deps: BatchDeps = {
      events: ports.events,
      directory: ports.directory,
      health: ports.health,
      deliveries: ports.deliveries,
      endpointStore: ports.endpointStore,
      healthPolicy: DEFAULT_HEALTH_POLICY,
      sender,
      queue: ports.queue,
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
    const settings = pullSettings(PULL_WHEN_HELD, DEFAULT_TIMEOUTS.totalMs);
    // As the deployed handler: the pull reads the invocation's remaining time and sleeps on the clock.
    const deliver = (messages: readonly QueueMessage[], deadline: number) =>
      deliverBatch(
        scenario.pullWhenHeld === false
          ? deps
          : {
              ...deps,
              pull: {
                queue: ports.queue,
                settings,
                pollMs: PULL_WHEN_HELD.pollMs,
                sleep: (ms) => engine.sleep(ms),
                remainingMs: () => Math.max(0, deadline - engine.now()),
              },
            },
        messages,
      );
    // Without the local comparison's CPU, nothing is awaited before the batch (no extra microtask).
    return queueHandler(
      cpu
        ? async (messages, deadline) => {
            await cpu.use((messages.length * (scenario.localCpu?.msPerEvent ?? 0)) / 2);
            return deliver(messages, deadline);
          }
        : deliver,
    );
  };
  const source = new SqsEventSource(engine, {
    queue: deployment.queue,
    batchSize: CONSUMER_EVENT_SOURCE.batchSize,
    reportBatchItemFailures: CONSUMER_EVENT_SOURCE.reportBatchItemFailures,
    maximumConcurrency: scenario.maximumConcurrency ?? 20,
    timeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
    coldStart: scenario.coldStart ?? 250,
    ...(scenario.invokeOverhead === undefined ? {} : { invokeOverhead: scenario.invokeOverhead }),
    ...(scenario.startConcurrency === undefined ? {} : { scaling: { start: scenario.startConcurrency } }),
    init: consumerInit,
  });
  /** Module init of the dead-letter reconciler (`reconcile-dead-letters.ts`). */
  const reconcilerInit = (): SqsHandler => {
    const ports = deployment.ports('reconciler');
    const deps = {
      events: ports.events,
      queue: ports.queue,
      directory: ports.directory,
      deliveries: ports.deliveries,
      maxAttempts: MAX_ATTEMPTS,
      now: engine.now,
      observe: observer.reconciled,
      observeError: observer.error,
    };
    return queueHandler((messages) => reconcileBatch(deps, messages));
  };
  const reconciler = new SqsEventSource(engine, {
    queue: deployment.deadLetters,
    batchSize: RECONCILER_EVENT_SOURCE.batchSize,
    reportBatchItemFailures: RECONCILER_EVENT_SOURCE.reportBatchItemFailures,
    maximumConcurrency: 2,
    timeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
    coldStart: scenario.coldStart ?? 250,
    init: reconcilerInit,
  });

  // Clients publish each event at its time through the API; the stream and the forwarder take it on.
  const publisher = new Publisher(engine, deployment, {
    ...scenario.publisher,
    ...(cpu ? { beforeSend: () => cpu.use((scenario.localCpu?.msPerEvent ?? 0) / 2) } : {}),
  });
  const forwarder = new Forwarder(
    engine,
    deployment,
    scenario.streamShards,
    scenario.forwarderWindowMs,
    scenario.forwarderPoll,
  );
  const spread = scenario.publishOverMs ?? 1_000;
  for (let i = 0; i < scenario.events; i++) {
    const id = scenarioEventId(i);
    const index = scenario.accountOf?.(i) ?? i % scenario.accounts;
    const account = ibans[index] as string;
    const awaited = scenario.stopAtDeliveryOf?.(index) ?? false;
    const urls = scenario.awaitEndpoint && awaited ? (awaitedUrls[index] ?? []) : undefined;
    engine.at(start + Math.floor((i * spread) / scenario.events), () => {
      observer.published(id, awaited, urls);
      engine.spawn(async () => {
        const stored = await publisher.publish({
          id,
          account,
          type: 'credit_transfer_status_change',
          payload: SAMPLE_PAYLOAD,
        });
        if (!stored) observer.abandoned(id);
      });
    });
  }

  source.start();
  reconciler.start();
  const done = scenario.stopAtDeliveryOf
    ? observer.watchDelivered(scenario.events)
    : observer.watch(scenario.events, deployment.queue);
  const run = await engine.run({ until: start + (scenario.maxVirtualMs ?? 10 * 86_400_000), stopWhen: done });
  source.stop();
  reconciler.stop();
  return observer.report({
    run,
    start,
    wallMs: performance.now() - wallStart,
    receivers,
    ibans,
    queue: deployment.queue,
    deadLetters: deployment.deadLetters,
    source,
    dynamo: deployment.dynamo,
    publish: publisher.stats,
    forwarder: forwarder.stats,
  });
}

/** The shared queue handler's own lines (`queue-handler.ts`, without its middy logging and metrics). */
function queueHandler(
  handle: (messages: readonly QueueMessage[], deadline: number) => Promise<readonly string[]>,
): SqsHandler {
  return async (event, context) => {
    const keep = await handle(toQueueMessages(event.Records), context.deadline);
    return { batchItemFailures: keep.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
