/**
 * What standard and FIFO queues share: receive with long polling, visibility timeouts and their 12-hour
 * limit, receipt handles, delete and ChangeMessageVisibility (single and batch), retention counted from
 * the first send, redrive to a dead-letter queue after `maxReceiveCount` receives, at-least-once
 * duplicates and request counting. Subclasses decide which stored messages are visible, in what order.
 */
import type { Scheduler } from '../../engine/scheduler';
import { LongPolls } from './long-poll';
import {
  checkRange,
  type OutgoingMessage,
  type ReceivedMessage,
  type ReceiveOptions,
  readReceiptHandle,
  receiptHandleOf,
  SQS_LIMITS,
  SqsError,
  type StoredMessage,
} from './message';
import { type BatchFailure, collectErrors, type QueueConfig, type QueueStats, type SimQueue } from './queue';
import { payloadBytes, SqsRequestMeter } from './requests';

/** The shared mechanics; see the file comment. */
export abstract class QueueBase implements SimQueue {
  abstract readonly fifo: boolean;
  readonly name: string;
  readonly requests = new SqsRequestMeter();
  readonly stats: QueueStats = {
    sent: 0,
    deduplicated: 0,
    received: 0,
    deleted: 0,
    staleDeletes: 0,
    missedDeletes: 0,
    expired: 0,
    redriven: 0,
  };
  protected readonly messages = new Map<number, StoredMessage>();
  protected readonly visibilityMs: number;
  protected readonly delayMs: number;
  private readonly retentionMs: number;
  private readonly waitSeconds: number;
  private readonly polls: LongPolls;
  private seq = 0;

  constructor(
    protected readonly scheduler: Scheduler,
    private readonly config: QueueConfig,
  ) {
    this.name = config.name;
    const visibility = config.visibilityTimeoutSeconds ?? 30;
    const retention = config.retentionSeconds ?? SQS_LIMITS.defaultRetentionSeconds;
    const delay = config.delaySeconds ?? 0;
    checkRange('VisibilityTimeout', visibility, 0, SQS_LIMITS.maxVisibilitySeconds);
    checkRange('MessageRetentionPeriod', retention, 60, SQS_LIMITS.maxRetentionSeconds);
    checkRange('DelaySeconds', delay, 0, SQS_LIMITS.maxDelaySeconds);
    this.waitSeconds = config.receiveWaitSeconds ?? 0;
    checkRange('ReceiveMessageWaitTimeSeconds', this.waitSeconds, 0, SQS_LIMITS.maxWaitSeconds);
    this.visibilityMs = visibility * 1000;
    this.retentionMs = retention * 1000;
    this.delayMs = delay * 1000;
    this.polls = new LongPolls(
      scheduler,
      (max, visibilityMs) => this.take(max, visibilityMs),
      () => this.nextVisibleAt(),
    );
  }

  get size(): number {
    return this.messages.size;
  }

  hasVisible(): boolean {
    const next = this.nextVisibleAt();
    return next !== undefined && next <= this.scheduler.now();
  }

  /** Puts a new message in the visibility order. */
  protected abstract enqueue(message: StoredMessage): void;
  /** Removes and returns up to `max` visible messages, in delivery order, each passed by {@link admit}. */
  protected abstract takeVisible(max: number): StoredMessage[];
  /** Puts a message whose `visibleAt` changed back in the order. */
  protected abstract requeue(message: StoredMessage): void;
  /** Forgets a deleted message. */
  protected abstract removed(message: StoredMessage): void;
  /** The earliest future time a message may become receivable. */
  protected abstract nextVisibleAt(): number | undefined;
  /** Validates a message to send and returns its stored form, or undefined when it is deduplicated. */
  protected abstract accept(message: OutgoingMessage, seq: number): StoredMessage | undefined;

  send(message: OutgoingMessage): string {
    this.requests.count('SendMessage', payloadBytes([message]));
    return this.store(message);
  }

  sendBatch(messages: readonly OutgoingMessage[]): string[] {
    checkRange('entries', messages.length, 1, SQS_LIMITS.maxBatch);
    this.requests.count('SendMessageBatch', payloadBytes(messages));
    return messages.map((message) => this.store(message));
  }

  async receive(options: ReceiveOptions = {}): Promise<ReceivedMessage[]> {
    const max = options.maxMessages ?? 1;
    const wait = options.waitSeconds ?? this.waitSeconds;
    const visibility = options.visibilityTimeoutSeconds ?? this.visibilityMs / 1000;
    checkRange('MaxNumberOfMessages', max, 1, SQS_LIMITS.maxBatch);
    checkRange('WaitTimeSeconds', wait, 0, SQS_LIMITS.maxWaitSeconds);
    checkRange('VisibilityTimeout', visibility, 0, SQS_LIMITS.maxVisibilitySeconds);
    const waitMs = Math.min(options.waitMs ?? wait * 1000, SQS_LIMITS.maxWaitSeconds * 1000);
    const now = this.take(max, visibility * 1000);
    if (now.length > 0 || waitMs <= 0) return this.answered(now);
    const got = await this.polls.wait(max, visibility * 1000, waitMs);
    return this.answered(got);
  }

  delete(receiptHandle: string): void {
    this.requests.count('DeleteMessage');
    this.remove(receiptHandle);
  }

  deleteBatch(receiptHandles: readonly string[]): { readonly failed: readonly BatchFailure[] } {
    checkRange('entries', receiptHandles.length, 1, SQS_LIMITS.maxBatch);
    this.requests.count('DeleteMessageBatch');
    return { failed: collectErrors(receiptHandles, (handle) => this.remove(handle)) };
  }

  changeVisibility(receiptHandle: string, seconds: number): void {
    this.requests.count('ChangeMessageVisibility');
    this.setVisibility(receiptHandle, seconds);
  }

  changeVisibilityBatch(entries: readonly { readonly receiptHandle: string; readonly seconds: number }[]): {
    readonly failed: readonly BatchFailure[];
  } {
    checkRange('entries', entries.length, 1, SQS_LIMITS.maxBatch);
    this.requests.count('ChangeMessageVisibilityBatch');
    return { failed: collectErrors(entries, (e) => this.setVisibility(e.receiptHandle, e.seconds)) };
  }

  acceptRedrive(message: StoredMessage): void {
    // A standard DLQ keeps the original send time (retention keeps counting); a FIFO DLQ resets it.
    const now = this.scheduler.now();
    const copy = this.fresh(this.seq++, message.body, message.messageId, message.groupId, message.dedupId);
    copy.sentAt = this.fifo ? now : message.sentAt;
    this.messages.set(copy.seq, copy);
    this.enqueue(copy);
    this.polls.pump();
  }

  /**
   * Retention and redrive, applied as a receive reaches a message: false when the message expired or
   * went to the dead-letter queue instead of being delivered (it is then gone from this queue).
   */
  protected admit(message: StoredMessage): boolean {
    const now = this.scheduler.now();
    if (now >= message.sentAt + this.retentionMs) {
      this.forget(message);
      this.stats.expired++;
      return false;
    }
    const redrive = this.config.redrive;
    if (redrive && message.receiveCount >= redrive.maxReceiveCount) {
      this.forget(message);
      this.stats.redriven++;
      redrive.deadLetter.acceptRedrive(message);
      return false;
    }
    return true;
  }

  /** A new stored message. */
  protected fresh(
    seq: number,
    body: string,
    messageId = `${this.name}-${seq}`,
    groupId?: string,
    dedupId?: string,
  ): StoredMessage {
    const now = this.scheduler.now();
    return {
      seq,
      messageId,
      body,
      sentAt: now,
      receiveCount: 0,
      visibleAt: now,
      receivedAt: 0,
      firstReceivedAt: 0,
      version: 0,
      deleted: false,
      groupId,
      dedupId,
    };
  }

  private store(message: OutgoingMessage): string {
    const stored = this.accept(message, this.seq++);
    if (stored === undefined) {
      this.stats.deduplicated++;
      return `${this.name}-deduplicated`;
    }
    this.stats.sent++;
    this.messages.set(stored.seq, stored);
    this.enqueue(stored);
    this.polls.pump();
    return stored.messageId;
  }

  private take(max: number, visibilityMs: number): ReceivedMessage[] {
    const now = this.scheduler.now();
    const taken = this.takeVisible(max);
    return taken.map((message) => {
      message.receiveCount++;
      message.receivedAt = now;
      if (message.firstReceivedAt === 0) message.firstReceivedAt = now;
      message.visibleAt = now + visibilityMs;
      message.version++;
      this.requeue(message);
      this.stats.received++;
      return {
        messageId: message.messageId,
        receiptHandle: receiptHandleOf(this.name, message),
        body: message.body,
        receiveCount: message.receiveCount,
        sentAt: message.sentAt,
        firstReceivedAt: message.firstReceivedAt,
        groupId: message.groupId,
        dedupId: message.dedupId,
        sequenceNumber: this.fifo ? String(message.seq).padStart(20, '0') : undefined,
      };
    });
  }

  private answered(messages: ReceivedMessage[]): ReceivedMessage[] {
    this.requests.count('ReceiveMessage', payloadBytes(messages));
    if (messages.length === 0) this.requests.emptyReceives++;
    return messages;
  }

  /** The message a receipt handle names, or the error SQS gives for it. */
  private lookup(receiptHandle: string): { message: StoredMessage | undefined; current: boolean } {
    const { seq, receiveCount } = readReceiptHandle(this.name, receiptHandle);
    const message = this.messages.get(seq);
    return { message, current: message?.receiveCount === receiveCount };
  }

  private remove(receiptHandle: string): void {
    const { message, current } = this.lookup(receiptHandle);
    if (message === undefined) return;
    if (!current) {
      this.stats.staleDeletes++;
      return;
    }
    if (this.config.duplicateProbability && this.scheduler.random.chance(this.config.duplicateProbability)) {
      this.stats.missedDeletes++;
      return;
    }
    this.forget(message);
    this.stats.deleted++;
    this.removed(message);
    this.polls.pump();
  }

  private setVisibility(receiptHandle: string, seconds: number): void {
    checkRange('VisibilityTimeout', seconds, 0, SQS_LIMITS.maxVisibilitySeconds);
    const { message, current } = this.lookup(receiptHandle);
    if (message === undefined || !current) {
      throw new SqsError('ReceiptHandleIsInvalid', 'the message was deleted or received again');
    }
    const now = this.scheduler.now();
    if (message.visibleAt <= now) throw new SqsError('MessageNotInflight', 'the visibility timeout expired');
    const visibleAt = now + seconds * 1000;
    if (visibleAt > message.receivedAt + SQS_LIMITS.maxVisibilitySeconds * 1000) {
      throw new SqsError(
        'InvalidParameterValue',
        'the visibility timeout would exceed 12 hours from the receive',
      );
    }
    message.visibleAt = visibleAt;
    message.version++;
    this.requeue(message);
    this.polls.pump();
  }

  private forget(message: StoredMessage): void {
    message.deleted = true;
    this.messages.delete(message.seq);
  }
}
