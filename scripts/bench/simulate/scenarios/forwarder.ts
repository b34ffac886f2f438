/**
 * The events table's stream and the forwarder, in virtual time. Every event stored as pending becomes a
 * stream record on a shard (chosen by its partition key, as DynamoDB Streams shards by partition); each
 * shard has one forwarder invocation at a time (parallelization factor 1), which starts when 100 records
 * are waiting or a batching window after the first one, and sends its records as the forwarder handler
 * does: ten at a time through the real `SqsDeliveryQueue` adapter, each chunk awaited before the next.
 * Records are readable as soon as they are written (the stream's own propagation delay and the poller's
 * four polls a second are taken to be inside the window: an **assumption**). For the comparison with the
 * local runtime, `poll` replaces the window with the local stream link's loop (`stream-link.ts`): a
 * GetRecords round trip, the records read handed on, then a pause of `everyMs` before the next poll.
 */
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { FORWARDER_EVENT_SOURCE } from '#config/delivery';
import type { EventRef } from '#domain/model';
import { drawLatency, hash32, type Latency } from '../engine/random';
import type { Scheduler } from '../engine/scheduler';
import { type Deployment, QUEUE_URL } from './deployment';

/** SendMessageBatch takes ten entries; the handler sends one chunk at a time. */
const CHUNK = 10;

/** Forwarder figures. */
export interface ForwarderStats {
  invocations: number;
  records: number;
  /** Forwarding calls that threw (the records are sent again, as Lambda retries the batch). */
  errors: number;
}

/** The local runtime's stream link: a pause between polls and each poll's GetRecords round trip. */
export interface LocalStreamPoll {
  readonly everyMs: number;
  readonly readLatency: Latency;
}

/** The stream and its forwarder. */
export class Forwarder {
  readonly stats: ForwarderStats = { invocations: 0, records: 0, errors: 0 };
  private readonly polled: boolean;
  private readonly shards: { waiting: EventRef[]; busy: boolean; due: boolean }[];
  private readonly queue: SqsDeliveryQueue;

  constructor(
    private readonly engine: Scheduler,
    deployment: Deployment,
    shards = 4,
    private readonly windowMs = FORWARDER_EVENT_SOURCE.maxBatchingWindowSeconds * 1000,
    poll?: LocalStreamPoll,
  ) {
    this.shards = Array.from({ length: shards }, () => ({ waiting: [], busy: false, due: false }));
    this.queue = new SqsDeliveryQueue(deployment.sqs, QUEUE_URL);
    deployment.events.onInsert((event) => {
      if (event.webhookStatus === 'pending') this.record(event);
    });
    this.polled = poll !== undefined;
    if (poll) {
      engine.spawn(async () => {
        for (;;) {
          // What a GetRecords returns is what was written before it was answered.
          await engine.sleep(drawLatency(poll.readLatency, engine.random));
          for (const shard of this.shards) {
            shard.due = shard.waiting.length > 0;
            this.drain(shard);
          }
          await engine.sleep(poll.everyMs);
        }
      });
    }
  }

  private record(ref: EventRef): void {
    const shard = this.shards[hash32(`${ref.orgId}#${ref.account}`) % this.shards.length];
    if (shard === undefined) return;
    shard.waiting.push({ id: ref.id, orgId: ref.orgId, account: ref.account, sequence: ref.sequence });
    if (shard.waiting.length === 1 && !shard.busy && !this.polled) {
      this.engine.after(this.windowMs, () => {
        shard.due = true;
        this.drain(shard);
      });
    }
    if (shard.waiting.length >= FORWARDER_EVENT_SOURCE.batchSize) this.drain(shard);
  }

  private drain(shard: { waiting: EventRef[]; busy: boolean; due: boolean }): void {
    if (shard.busy || shard.waiting.length === 0) return;
    if (!shard.due && shard.waiting.length < FORWARDER_EVENT_SOURCE.batchSize) return;
    shard.busy = true;
    const batch = shard.waiting.splice(0, FORWARDER_EVENT_SOURCE.batchSize);
    this.stats.invocations++;
    this.engine.spawn(async () => {
      for (let start = 0; start < batch.length; start += CHUNK) {
        const chunk = batch.slice(start, start + CHUNK);
        try {
          await this.queue.enqueue(chunk);
          this.stats.records += chunk.length;
        } catch {
          // Lambda retries the batch from the first unsent record.
          this.stats.errors++;
          shard.waiting.unshift(...batch.slice(start));
          break;
        }
      }
      shard.busy = false;
      shard.due = shard.waiting.length > 0;
      if (shard.due) this.engine.after(0, () => this.drain(shard));
    });
  }
}
