/**
 * What a consumer scenario observes while it runs (publish times, first successful answers, the
 * use-case's outcomes and errors, which events have settled) and the report it hands back.
 */

import type { ReconcileOutcome } from '#delivery/dead-letter';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import type { EventRecord } from '#domain/model';
import type { DynamoMeter } from '../aws/dynamodb/meter';
import type { EventSourceStats, SqsEventSource } from '../aws/lambda/sqs-event-source';
import type { QueueStats, SimQueue } from '../aws/sqs/queue';
import type { SqsRequestMeter } from '../aws/sqs/requests';
import type { RunResult, Scheduler } from '../engine/scheduler';
import type { SentRequest } from '../ports/sim-webhook-sender';
import type { Receiver } from '../receivers/receivers';
import { quantile } from '../report';
import type { StreamedEventStore } from './deployment';
import type { ForwarderStats } from './forwarder';
import type { PublishStats } from './publisher';

/** A queue's figures at the end of a run. */
export interface QueueReport {
  readonly stats: QueueStats;
  readonly requests: SqsRequestMeter;
  /** Messages still stored. */
  readonly size: number;
}

/** Everything a consumer scenario produced. */
export interface ConsumerRun {
  readonly run: RunResult;
  /** Virtual time from the first publish to the end of the run, ms. */
  readonly virtualMs: number;
  /** Virtual time from the first publish until every event had settled, if they all did. */
  readonly settledMs: number | undefined;
  readonly wallMs: number;
  /** Callbacks the engine executed. */
  readonly callbacks: number;
  readonly events: readonly EventRecord[];
  readonly publishedAt: ReadonlyMap<string, number>;
  /** When each event was stored (its conditional put succeeded). */
  readonly storedAt: ReadonlyMap<string, number>;
  /** When each event's first 2xx answer arrived. */
  readonly deliveredAt: ReadonlyMap<string, number>;
  /** When each event's first 2xx answer at each endpoint arrived, by {@link atEndpoint}. */
  readonly deliveredAtEndpoint: ReadonlyMap<string, number>;
  /** Account index of each IBAN (scenario order). */
  readonly accountIndex: ReadonlyMap<string, number>;
  readonly outcomes: Readonly<Record<string, number>>;
  /** Messages the batch reported as failing (they come back). */
  readonly batchErrors: readonly unknown[];
  readonly engineErrors: readonly unknown[];
  readonly receiverRequests: readonly number[];
  readonly queue: QueueReport;
  readonly deadLetters: QueueReport;
  readonly lambda: EventSourceStats & { readonly coldStarts: number };
  readonly dynamo: DynamoMeter;
  readonly publish: PublishStats;
  readonly forwarder: ForwarderStats;
  /** Dead letters the reconciler handled, by outcome. */
  readonly reconciled: Readonly<Record<string, number>>;
}

/** What the scenario hands over at the end. */
export interface RunParts {
  readonly run: RunResult;
  readonly start: number;
  readonly wallMs: number;
  readonly receivers: readonly Receiver[];
  readonly ibans: readonly string[];
  readonly queue: SimQueue;
  readonly deadLetters: SimQueue;
  readonly source: SqsEventSource;
  readonly dynamo: DynamoMeter;
  readonly publish: PublishStats;
  readonly forwarder: ForwarderStats;
}

/** The key of an event's delivery at one endpoint, by the endpoint's URL. */
export const atEndpoint = (id: string, url: string): string => `${id} ${url}`;

/** The observer a scenario wires into its ports. */
export function observeRun(engine: Scheduler, store: StreamedEventStore) {
  const publishedAt = new Map<string, number>();
  const storedAt = new Map<string, number>();
  store.onInsert((event) => storedAt.set(event.id, engine.now()));
  const deliveredAt = new Map<string, number>();
  const deliveredAtEndpoint = new Map<string, number>();
  const settled = new Set<string>();
  /**
   * Events (or, by {@link atEndpoint}, their deliveries at endpoints) whose first delivery ends a run that
   * stops at delivery (see `watchDelivered`).
   */
  const awaited = new Set<string>();
  const outcomes: Record<string, number> = {};
  const reconciled: Record<string, number> = {};
  const batchErrors: unknown[] = [];
  let settledAt: number | undefined;

  const queueReport = (queue: SimQueue): QueueReport => ({
    stats: { ...queue.stats },
    requests: queue.requests,
    size: queue.size,
  });

  return {
    get publishedCount(): number {
      return publishedAt.size;
    },
    /**
     * A publish starts (`awaited`: a run stopping at delivery waits for this event; with `urls`, for its
     * delivery at each of those endpoints).
     */
    published(id: string, awaitedEvent = false, urls?: readonly string[]): void {
      publishedAt.set(id, engine.now());
      if (!awaitedEvent) return;
      if (urls === undefined) awaited.add(id);
      else for (const url of urls) awaited.add(atEndpoint(id, url));
    },
    sent({ request, result, at }: SentRequest): void {
      const id = request.headers['webhook-id'];
      if (id === undefined || result.status < 200 || result.status >= 300) return;
      const key = atEndpoint(id, request.url);
      if (!deliveredAtEndpoint.has(key)) deliveredAtEndpoint.set(key, at);
      awaited.delete(key);
      if (!deliveredAt.has(id)) {
        deliveredAt.set(id, at);
        awaited.delete(id);
      }
    },
    outcome(id: string, outcome: DeliveryOutcome): void {
      outcomes[outcome.kind] = (outcomes[outcome.kind] ?? 0) + 1;
      if (store.events.get(id)?.webhookStatus !== 'pending') settled.add(id);
    },
    /**
     * A publish the client gave up on: nothing was stored, so nothing will settle or be delivered (a run
     * that waits for its delivery would otherwise run to its safety stop).
     */
    abandoned(id: string): void {
      settled.add(id);
      awaited.delete(id);
      for (const key of awaited) if (key.startsWith(`${id} `)) awaited.delete(key);
    },
    reconciled(id: string, outcome: ReconcileOutcome): void {
      reconciled[outcome] = (reconciled[outcome] ?? 0) + 1;
      if (store.events.get(id)?.webhookStatus !== 'pending') settled.add(id);
    },
    error(_messageId: string, error: unknown): void {
      batchErrors.push(error);
    },
    /** The run's stop condition: every event settled and the queue empty. */
    watch(total: number, queue: SimQueue): () => boolean {
      return () => {
        if (settled.size < total) return false;
        settledAt ??= engine.now();
        return queue.size === 0;
      };
    },
    /** The stop condition of a run that ends once every awaited event was delivered (after `total` publishes). */
    watchDelivered(total: number): () => boolean {
      return () => {
        if (publishedAt.size < total || awaited.size > 0) return false;
        settledAt ??= engine.now();
        return true;
      };
    },
    report(parts: RunParts): ConsumerRun {
      return {
        run: parts.run,
        virtualMs: parts.run.endedAt - parts.start,
        settledMs: settledAt === undefined ? undefined : settledAt - parts.start,
        wallMs: parts.wallMs,
        callbacks: engine.counts.executed,
        events: [...store.events.values()],
        publishedAt,
        storedAt,
        deliveredAt,
        deliveredAtEndpoint,
        accountIndex: new Map(parts.ibans.map((iban, index) => [iban, index])),
        outcomes,
        batchErrors,
        engineErrors: engine.errors,
        receiverRequests: parts.receivers.map((receiver) => receiver.requests),
        queue: queueReport(parts.queue),
        deadLetters: queueReport(parts.deadLetters),
        lambda: { ...parts.source.stats, coldStarts: parts.source.environments.stats.coldStarts },
        dynamo: parts.dynamo,
        publish: parts.publish,
        forwarder: parts.forwarder,
        reconciled,
      };
    },
  };
}

/** The headline figures of a run. */
export interface ConsumerFigures {
  readonly delivered: number;
  /** Publish → first 2xx of the accounts `fast` selects, ms. */
  readonly fastP50Ms: number;
  readonly fastP90Ms: number;
  readonly fastP99Ms: number;
  /** When the last event of those accounts was delivered, from the first publish, ms. */
  readonly fastDrainedMs: number;
  readonly invocations: number;
  readonly coldStarts: number;
  readonly readUnitsPerDelivered: number;
  readonly writeUnitsPerDelivered: number;
  readonly sqsRequestsPerDelivered: number;
  readonly throttles: number;
}

/** Sums up a run; `fast(index)` says which accounts' latencies count. */
export function figures(run: ConsumerRun, fast: (accountIndex: number) => boolean): ConsumerFigures {
  let start = Number.POSITIVE_INFINITY;
  for (const at of run.publishedAt.values()) start = Math.min(start, at);
  const latencies: number[] = [];
  let drained = 0;
  for (const event of run.events) {
    const at = run.deliveredAt.get(event.id);
    if (at === undefined || !fast(run.accountIndex.get(event.account) ?? -1)) continue;
    latencies.push(at - (run.publishedAt.get(event.id) ?? at));
    drained = Math.max(drained, at - start);
  }
  const delivered = run.deliveredAt.size;
  const total = run.dynamo.total();
  const per = (n: number) => (delivered === 0 ? Number.NaN : n / delivered);
  return {
    delivered,
    fastP50Ms: quantile(latencies, 0.5),
    fastP90Ms: quantile(latencies, 0.9),
    fastP99Ms: quantile(latencies, 0.99),
    fastDrainedMs: drained,
    invocations: run.lambda.invocations,
    coldStarts: run.lambda.coldStarts,
    readUnitsPerDelivered: per(total.readUnits),
    writeUnitsPerDelivered: per(total.writeUnits + total.indexWriteUnits),
    sqsRequestsPerDelivered: per(run.queue.requests.billable + run.deadLetters.requests.billable),
    throttles: total.throttles,
  };
}
