/**
 * What both SQS queue models share: the stored message, what a receive hands out, the documented limits
 * and the errors SQS answers with. Sources are in docs/simulation.md (SQS section).
 */

/** SQS's documented limits that the models enforce. */
export const SQS_LIMITS = {
  /** `DelaySeconds` of a message or queue: 0–900 s. */
  maxDelaySeconds: 900,
  /** Visibility timeout and ChangeMessageVisibility: at most 12 h, counted from the receive. */
  maxVisibilitySeconds: 12 * 60 * 60,
  /** Long-poll wait: at most 20 s. */
  maxWaitSeconds: 20,
  /** Messages per ReceiveMessage and entries per batch call. */
  maxBatch: 10,
  /** Retention: 60 s to 14 days (default 4 days). */
  maxRetentionSeconds: 14 * 24 * 60 * 60,
  defaultRetentionSeconds: 4 * 24 * 60 * 60,
  /** FIFO deduplication interval. */
  dedupWindowMs: 5 * 60 * 1000,
  /** Each 64 KB chunk of a request's payload is billed as one request. */
  billingChunkBytes: 64 * 1024,
} as const;

/** A message as a queue model stores it. */
export interface StoredMessage {
  /** Internal sequence number, unique within the queue; orders sends. */
  readonly seq: number;
  readonly messageId: string;
  readonly body: string;
  /** `SentTimestamp`: epoch ms of the first send (a standard DLQ keeps it, a FIFO DLQ resets it). */
  sentAt: number;
  /** `ApproximateReceiveCount`. */
  receiveCount: number;
  /** Epoch ms from which the message may be received (after a delay or a visibility timeout). */
  visibleAt: number;
  /** Epoch ms of the latest receive: ChangeMessageVisibility may not reach past it + 12 h. */
  receivedAt: number;
  /** `ApproximateFirstReceiveTimestamp`. */
  firstReceivedAt: number;
  /** Bumped on every change of `visibleAt`, so stale entries of the visibility order are skipped. */
  version: number;
  deleted: boolean;
  readonly groupId?: string | undefined;
  readonly dedupId?: string | undefined;
}

/** A received message: the fields of a Lambda `SQSRecord` and of a `ReceiveMessage` answer. */
export interface ReceivedMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  readonly receiveCount: number;
  readonly sentAt: number;
  readonly firstReceivedAt: number;
  readonly groupId?: string | undefined;
  readonly dedupId?: string | undefined;
  /** FIFO only: the message's order in the queue. */
  readonly sequenceNumber?: string | undefined;
}

/** A message to send. */
export interface OutgoingMessage {
  readonly body: string;
  /** Standard queues only (FIFO queues accept only a queue-level delay). */
  readonly delaySeconds?: number;
  /** FIFO only, required there. */
  readonly groupId?: string;
  /** FIFO only; required unless the queue has content-based deduplication. */
  readonly dedupId?: string;
}

/** Options of one ReceiveMessage call. */
export interface ReceiveOptions {
  /** 1–10, default 1. */
  readonly maxMessages?: number;
  /** Long poll up to this many seconds (0–20); default: the queue's `receiveWaitSeconds`. */
  readonly waitSeconds?: number;
  /**
   * Long poll up to this many milliseconds (0–20,000), overriding `waitSeconds`: for AWS's own pollers
   * (a Lambda batching window ends to the millisecond), not part of the SQS API.
   */
  readonly waitMs?: number;
  /** Overrides the queue's visibility timeout for these messages. */
  readonly visibilityTimeoutSeconds?: number;
}

/** An error SQS answers with, named like the SDK's exception. */
export class SqsError extends Error {
  constructor(
    readonly code:
      | 'ReceiptHandleIsInvalid'
      | 'MessageNotInflight'
      | 'InvalidParameterValue'
      | 'OverLimit'
      | 'MissingParameter',
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = code;
  }
}

/** Checks an integer parameter against its documented range. */
export function checkRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SqsError(
      'InvalidParameterValue',
      `${name} must be an integer from ${min} to ${max}, got ${value}`,
    );
  }
}

/**
 * The receipt handle of a message's latest receive: its queue, the message and which receive it was (a
 * later receive makes it stale, as SQS's do).
 */
export function receiptHandleOf(queue: string, message: Pick<StoredMessage, 'seq' | 'receiveCount'>): string {
  return `${queue}/${message.seq}/${message.receiveCount}`;
}

/** What a receipt handle of `queue` names; any other is the error SQS gives for it. */
export function readReceiptHandle(queue: string, handle: string): { seq: number; receiveCount: number } {
  const [named, seq, count] = handle.split('/');
  if (named !== queue || seq === undefined || count === undefined) {
    throw new SqsError('ReceiptHandleIsInvalid', `not a receipt handle of ${queue}`);
  }
  return { seq: Number(seq), receiveCount: Number(count) };
}
