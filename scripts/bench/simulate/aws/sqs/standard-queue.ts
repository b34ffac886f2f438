/**
 * An SQS standard queue: any visible message may be received by anyone, in best-effort order (here:
 * earliest visible first, then send order), with per-message delays of up to 15 minutes.
 */

import { BinaryHeap } from '../../engine/heap';
import type { Scheduler } from '../../engine/scheduler';
import { checkRange, type OutgoingMessage, SQS_LIMITS, SqsError, type StoredMessage } from './message';
import type { QueueConfig } from './queue';
import { QueueBase } from './queue-base';

interface Entry {
  readonly visibleAt: number;
  readonly seq: number;
  readonly version: number;
  readonly message: StoredMessage;
}

/** The standard-queue model. */
export class StandardQueue extends QueueBase {
  readonly fifo = false;
  /** Visibility order; an entry whose version is outdated is skipped when it surfaces. */
  private readonly order = new BinaryHeap<Entry>((a, b) =>
    a.visibleAt === b.visibleAt ? a.seq < b.seq : a.visibleAt < b.visibleAt,
  );

  constructor(scheduler: Scheduler, config: QueueConfig) {
    super(scheduler, config);
  }

  protected accept(message: OutgoingMessage, seq: number): StoredMessage {
    if (message.groupId !== undefined || message.dedupId !== undefined) {
      throw new SqsError('InvalidParameterValue', 'deduplication ids and group ids are for FIFO queues');
    }
    const delaySeconds = message.delaySeconds ?? this.delayMs / 1000;
    checkRange('DelaySeconds', delaySeconds, 0, SQS_LIMITS.maxDelaySeconds);
    const stored = this.fresh(seq, message.body);
    stored.visibleAt += delaySeconds * 1000;
    return stored;
  }

  protected enqueue(message: StoredMessage): void {
    this.requeue(message);
  }

  protected requeue(message: StoredMessage): void {
    this.order.push({ visibleAt: message.visibleAt, seq: message.seq, version: message.version, message });
  }

  protected removed(): void {
    // Its entries in the visibility order are skipped once they surface.
  }

  protected takeVisible(max: number): StoredMessage[] {
    const now = this.scheduler.now();
    const taken: StoredMessage[] = [];
    while (taken.length < max) {
      const top = this.freshTop();
      if (top === undefined || top.visibleAt > now) break;
      this.order.pop();
      if (this.admit(top.message)) taken.push(top.message);
    }
    return taken;
  }

  protected nextVisibleAt(): number | undefined {
    return this.freshTop()?.visibleAt;
  }

  /** The first entry that still describes its message, dropping outdated ones. */
  private freshTop(): Entry | undefined {
    for (;;) {
      const top = this.order.peek();
      if (top === undefined) return undefined;
      if (!top.message.deleted && top.version === top.message.version) return top;
      this.order.pop();
    }
  }
}
