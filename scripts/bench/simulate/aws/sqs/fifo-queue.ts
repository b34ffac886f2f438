/**
 * An SQS FIFO queue: messages of one group are delivered in send order and one batch at a time (no
 * message of a group is received while another of its messages is in flight), sends with a deduplication
 * id seen in the last 5 minutes are accepted but dropped, and a redriven message leaves its group (which
 * unblocks it). A receive takes as many messages of the first ready group as it can, then other groups.
 */

import { BinaryHeap } from '../../engine/heap';
import type { Scheduler } from '../../engine/scheduler';
import { type OutgoingMessage, SQS_LIMITS, SqsError, type StoredMessage } from './message';
import type { QueueConfig } from './queue';
import { QueueBase } from './queue-base';

/** Settings of a FIFO queue. */
export interface FifoQueueConfig extends QueueConfig {
  /** Deduplicate by the body when a send gives no deduplication id. */
  readonly contentBasedDeduplication?: boolean;
}

interface Group {
  readonly id: string;
  /** Its stored messages in send order; the received ones are a prefix. */
  readonly messages: StoredMessage[];
  version: number;
}

interface Entry {
  readonly readyAt: number;
  readonly headSeq: number;
  readonly version: number;
  readonly group: Group;
}

/** The FIFO-queue model. */
export class FifoQueue extends QueueBase {
  readonly fifo = true;
  private readonly groups = new Map<string, Group>();
  /** Groups by the time their head becomes receivable; outdated entries are skipped. */
  private readonly ready = new BinaryHeap<Entry>((a, b) =>
    a.readyAt === b.readyAt ? a.headSeq < b.headSeq : a.readyAt < b.readyAt,
  );
  /** Deduplication ids and when they stop counting, in expiry order. */
  private readonly dedup = new Map<string, number>();
  private readonly contentBased: boolean;

  constructor(scheduler: Scheduler, config: FifoQueueConfig) {
    super(scheduler, config);
    if (!config.name.endsWith('.fifo')) {
      throw new SqsError('InvalidParameterValue', 'a FIFO queue name must end with .fifo');
    }
    this.contentBased = config.contentBasedDeduplication ?? false;
  }

  protected accept(message: OutgoingMessage, seq: number): StoredMessage | undefined {
    if (message.groupId === undefined) throw new SqsError('MissingParameter', 'MessageGroupId is required');
    if (message.delaySeconds !== undefined) {
      throw new SqsError('InvalidParameterValue', 'FIFO queues take only a queue-level delay');
    }
    const dedupId = message.dedupId ?? (this.contentBased ? `body:${message.body}` : undefined);
    if (dedupId === undefined) {
      throw new SqsError('InvalidParameterValue', 'MessageDeduplicationId is required');
    }
    const now = this.scheduler.now();
    this.forgetDedupBefore(now);
    if (this.dedup.has(dedupId)) return undefined;
    this.dedup.set(dedupId, now + SQS_LIMITS.dedupWindowMs);
    const stored = this.fresh(seq, message.body, undefined, message.groupId, dedupId);
    stored.visibleAt += this.delayMs;
    return stored;
  }

  protected enqueue(message: StoredMessage): void {
    const id = message.groupId as string;
    let group = this.groups.get(id);
    if (group === undefined) {
      group = { id, messages: [], version: 0 };
      this.groups.set(id, group);
    }
    group.messages.push(message);
    if (group.messages.length === 1) this.schedule(group);
  }

  protected requeue(message: StoredMessage): void {
    const group = this.groups.get(message.groupId as string);
    if (group) this.schedule(group);
  }

  protected removed(message: StoredMessage): void {
    this.leaveGroup(message);
  }

  protected takeVisible(max: number): StoredMessage[] {
    const now = this.scheduler.now();
    const taken: StoredMessage[] = [];
    while (taken.length < max) {
      const top = this.freshTop();
      if (top === undefined || top.readyAt > now) break;
      this.ready.pop();
      const before = taken.length;
      // Consecutive messages of this group, from its head, as many as fit.
      const messages = top.group.messages;
      for (let i = 0; i < messages.length && taken.length < max; ) {
        const message = messages[i] as StoredMessage;
        if (this.admit(message)) {
          taken.push(message);
          i++;
        } else {
          // Gone (expired or redriven): the next message of the group takes its place.
          messages.splice(i, 1);
        }
      }
      // Every message of the group expired or was redriven: what is left (if anything) is ready again.
      if (taken.length === before) this.schedule(top.group);
    }
    return taken;
  }

  protected nextVisibleAt(): number | undefined {
    return this.freshTop()?.readyAt;
  }

  /**
   * Queues the group for when it can deliver: when its head is visible and none of its received
   * messages is in flight any more.
   */
  private schedule(group: Group): void {
    group.version++;
    const head = group.messages[0];
    if (head === undefined) {
      this.groups.delete(group.id);
      return;
    }
    let readyAt = head.visibleAt;
    for (const message of group.messages) {
      if (message !== head && message.receivedAt === 0) break;
      readyAt = Math.max(readyAt, message.visibleAt);
    }
    this.ready.push({ readyAt, headSeq: head.seq, version: group.version, group });
  }

  private leaveGroup(message: StoredMessage): void {
    const group = this.groups.get(message.groupId as string);
    if (group === undefined) return;
    const index = group.messages.indexOf(message);
    if (index >= 0) group.messages.splice(index, 1);
    this.schedule(group);
  }

  private freshTop(): Entry | undefined {
    for (;;) {
      const top = this.ready.peek();
      if (top === undefined) return undefined;
      if (top.version === top.group.version && this.groups.get(top.group.id) === top.group) return top;
      this.ready.pop();
    }
  }

  /** Drops deduplication ids whose interval ended (the map is in expiry order). */
  private forgetDedupBefore(now: number): void {
    for (const [id, until] of this.dedup) {
      if (until > now) return;
      this.dedup.delete(id);
    }
  }
}
