/**
 * A Lambda SQS event source mapping (standard mode): pollers long-poll the queue, gather a batch (batch
 * size, batching window, 6 MB payload), invoke the function and delete what succeeded. An invocation
 * holds one concurrency slot until its handler's promise settles or the function times out; a timed-out
 * invocation is frozen ({@link Scope}) and its environment discarded. With `reportBatchItemFailures` the
 * listed messages stay and the others are deleted; a handler that throws (or times out, or answers with
 * an unknown item) deletes nothing: the whole batch comes back after its visibility timeout. A handler may
 * itself receive, delete and postpone more messages through the same queue model while it runs.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { drawLatency, type Latency } from '../../engine/random';
import type { Scheduler } from '../../engine/scheduler';
import { runInScope, Scope } from '../../engine/scope';
import type { ReceivedMessage } from '../sqs/message';
import type { SimQueue } from '../sqs/queue';
import { type EnvironmentInfo, EnvironmentPool } from './environments';
import { ConcurrencyTarget, LAMBDA_SQS_SCALING, type ScalingConfig } from './scaling';

/** What a handler learns about its invocation. */
export interface InvocationContext {
  readonly invocationId: string;
  readonly environmentId: number;
  /** Epoch ms at which the function times out. */
  readonly deadline: number;
}

/** A function handler for SQS events. */
export type SqsHandler = (
  event: SQSEvent,
  context: InvocationContext,
) => Promise<SQSBatchResponse | undefined>;

/** The mapping's and the function's settings. */
export interface SqsEventSourceConfig {
  readonly queue: SimQueue;
  /** Default 10; up to 10,000 for standard queues (with a batching window of at least 1 s), 10 for FIFO. */
  readonly batchSize?: number;
  /** 0–300 s, default 0; not for FIFO queues. */
  readonly maxBatchingWindowSeconds?: number;
  /** `ScalingConfig.MaximumConcurrency`, 2–1,000. */
  readonly maximumConcurrency?: number;
  readonly reportBatchItemFailures?: boolean;
  /** The function's timeout. */
  readonly timeoutSeconds: number;
  /** Module init: called once per new execution environment, returns its handler. */
  readonly init: (environment: EnvironmentInfo) => SqsHandler;
  /** Duration of a cold start. Default 250 ms. */
  readonly coldStart?: Latency;
  /** Idle time after which a warm environment is reclaimed. Default 10 minutes. */
  readonly environmentIdleMs?: number;
  /** Poller overhead between a batch being gathered and the handler starting. Default ~10 ms. */
  readonly invokeOverhead?: Latency;
  readonly scaling?: Partial<ScalingConfig>;
}

/** What the event source did. */
export interface EventSourceStats {
  invocations: number;
  handlerErrors: number;
  timeouts: number;
  /** Answers naming an item not in the batch: the batch counts as failed. */
  invalidResponses: number;
  messagesDeleted: number;
  messagesReturned: number;
  /** Sum of invocation durations (handler start to settle or timeout), ms. */
  busyMs: number;
  peakConcurrency: number;
}

/** Payload limit of a synchronous invocation. */
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
const TIMED_OUT = Symbol('timed out');

/** The event source mapping model. */
export class SqsEventSource {
  readonly stats: EventSourceStats = {
    invocations: 0,
    handlerErrors: 0,
    timeouts: 0,
    invalidResponses: 0,
    messagesDeleted: 0,
    messagesReturned: 0,
    busyMs: 0,
    peakConcurrency: 0,
  };
  readonly environments: EnvironmentPool<SqsHandler>;
  private readonly target: ConcurrencyTarget;
  private readonly batchSize: number;
  private readonly windowMs: number;
  private running = false;
  private lanes = 0;
  private active = 0;
  private ticking = false;
  private invocationSeq = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly config: SqsEventSourceConfig,
  ) {
    const fifo = config.queue.fifo;
    this.batchSize = config.batchSize ?? 10;
    this.windowMs = (config.maxBatchingWindowSeconds ?? 0) * 1000;
    const maxBatch = fifo ? 10 : 10_000;
    if (!(this.batchSize >= 1 && this.batchSize <= maxBatch)) throw new RangeError(`batchSize 1–${maxBatch}`);
    if (fifo && this.windowMs > 0) throw new RangeError('a batching window is not supported for FIFO queues');
    if (this.batchSize > 10 && this.windowMs < 1000)
      throw new RangeError('batchSize > 10 needs a window ≥ 1 s');
    this.target = new ConcurrencyTarget(
      { ...LAMBDA_SQS_SCALING, ...config.scaling },
      config.maximumConcurrency,
    );
    this.environments = new EnvironmentPool(scheduler, {
      init: config.init,
      coldStart: config.coldStart ?? 250,
      idleMs: config.environmentIdleMs ?? 10 * 60 * 1000,
    });
  }

  /** Invocations running now. */
  get concurrency(): number {
    return this.active;
  }

  /** The current scaling target (concurrent batches). */
  get targetConcurrency(): number {
    return this.target.current;
  }

  /** Starts polling. */
  start(): void {
    this.running = true;
    this.addLanes();
    this.tick();
  }

  /** Stops polling once each poller finishes what it is doing. */
  stop(): void {
    this.running = false;
  }

  private addLanes(): void {
    while (this.running && this.lanes < this.target.current) {
      this.lanes++;
      this.scheduler.spawn(() => this.lane());
    }
  }

  private tick(): void {
    if (this.ticking || !this.running) return;
    this.ticking = true;
    this.scheduler.after(this.target.config.stepMs, () => {
      this.ticking = false;
      this.target.step(this.config.queue.hasVisible());
      this.addLanes();
      if (!this.target.settled || this.config.queue.hasVisible()) this.tick();
    });
  }

  /** One poller: gather a batch, invoke, repeat; retires when the target shrinks below it. */
  private async lane(): Promise<void> {
    for (;;) {
      if (!this.running || this.lanes > this.target.current) {
        this.lanes--;
        return;
      }
      const batch = await this.gather();
      if (batch.length > 0) await this.invoke(batch);
    }
  }

  private async gather(): Promise<ReceivedMessage[]> {
    const queue = this.config.queue;
    const batch = await queue.receive({ maxMessages: Math.min(10, this.batchSize), waitSeconds: 20 });
    this.noteReceive(batch.length);
    if (batch.length === 0 || this.windowMs === 0) return batch;
    const deadline = this.scheduler.now() + this.windowMs;
    let bytes = batch.reduce((sum, m) => sum + m.body.length, 0);
    while (batch.length < this.batchSize && bytes < MAX_PAYLOAD_BYTES) {
      const left = deadline - this.scheduler.now();
      if (left <= 0) break;
      const more = await queue.receive({
        maxMessages: Math.min(10, this.batchSize - batch.length),
        waitMs: left,
      });
      this.noteReceive(more.length);
      for (const message of more) bytes += message.body.length;
      batch.push(...more);
    }
    return batch;
  }

  private noteReceive(count: number): void {
    this.target.observe(count);
    if (count > 0) this.tick();
  }

  private async invoke(batch: ReceivedMessage[]): Promise<void> {
    await this.scheduler.sleep(
      drawLatency(this.config.invokeOverhead ?? { medianMs: 8, p99Ms: 30 }, this.scheduler.random),
    );
    const environment = await this.environments.acquire();
    this.active++;
    this.stats.invocations++;
    this.stats.peakConcurrency = Math.max(this.stats.peakConcurrency, this.active);
    const started = this.scheduler.now();
    const timeoutMs = this.config.timeoutSeconds * 1000;
    const context: InvocationContext = {
      invocationId: `invocation-${++this.invocationSeq}`,
      environmentId: environment.info.id,
      deadline: started + timeoutMs,
    };
    const scope = new Scope(context.invocationId);
    const event: SQSEvent = { Records: batch.map((message) => this.record(message)) };
    let timer: { cancel(): void } | undefined;
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = this.scheduler.after(timeoutMs, () => resolve(TIMED_OUT));
    });
    const handled = runInScope(scope, async () => environment.handler(event, context)).then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
    const outcome = await Promise.race([handled, timedOut]);
    timer?.cancel();
    this.active--;
    this.stats.busyMs += this.scheduler.now() - started;
    if (outcome === TIMED_OUT) {
      scope.kill();
      this.environments.discard(environment);
      this.stats.timeouts++;
      this.stats.messagesReturned += batch.length;
      return;
    }
    this.environments.release(environment);
    if ('error' in outcome) {
      this.stats.handlerErrors++;
      this.stats.messagesReturned += batch.length;
      return;
    }
    this.settle(batch, outcome.response);
  }

  /** Deletes what the invocation finished, as the poller does after a successful invocation. */
  private settle(batch: readonly ReceivedMessage[], response: SQSBatchResponse | undefined): void {
    const failures = this.config.reportBatchItemFailures ? (response?.batchItemFailures ?? []) : [];
    const ids = new Set(batch.map((message) => message.messageId));
    if (failures.some((failure) => !failure.itemIdentifier || !ids.has(failure.itemIdentifier))) {
      this.stats.invalidResponses++;
      this.stats.messagesReturned += batch.length;
      return;
    }
    const keep = new Set(failures.map((failure) => failure.itemIdentifier));
    const done = batch.filter((message) => !keep.has(message.messageId));
    for (let start = 0; start < done.length; start += 10) {
      const handles = done.slice(start, start + 10).map((message) => message.receiptHandle);
      this.config.queue.deleteBatch(handles);
    }
    this.stats.messagesDeleted += done.length;
    this.stats.messagesReturned += batch.length - done.length;
  }

  private record(message: ReceivedMessage): SQSRecord {
    const queue = this.config.queue;
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'SIMULATION',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
        ...(message.groupId === undefined ? {} : { MessageGroupId: message.groupId }),
        ...(message.dedupId === undefined ? {} : { MessageDeduplicationId: message.dedupId }),
        ...(message.sequenceNumber === undefined ? {} : { SequenceNumber: message.sequenceNumber }),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:eu-central-1:000000000000:${queue.name}`,
      awsRegion: 'eu-central-1',
    };
  }
}
