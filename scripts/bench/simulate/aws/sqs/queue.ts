/** The interface and settings of the SQS queue models (standard and FIFO), and how a batch call fails. */
import {
  type OutgoingMessage,
  type ReceivedMessage,
  type ReceiveOptions,
  SqsError,
  type StoredMessage,
} from './message';
import type { SqsRequestMeter } from './requests';

/** An entry of a batch call that failed. */
export interface BatchFailure {
  readonly index: number;
  readonly error: SqsError;
}

/** A batch call's failures: `apply` runs on every entry, and an entry SQS refuses is listed, not thrown. */
export function collectErrors<T>(entries: readonly T[], apply: (entry: T) => void): BatchFailure[] {
  const failed: BatchFailure[] = [];
  entries.forEach((entry, index) => {
    try {
      apply(entry);
    } catch (error) {
      if (!(error instanceof SqsError)) throw error;
      failed.push({ index, error });
    }
  });
  return failed;
}

/** Settings of a queue (SQS queue attributes). */
export interface QueueConfig {
  readonly name: string;
  /** Default 30 s, at most 12 h. */
  readonly visibilityTimeoutSeconds?: number;
  /** Default 4 days, at most 14 days. */
  readonly retentionSeconds?: number;
  /** Queue-level delivery delay, 0–900 s. */
  readonly delaySeconds?: number;
  /** Default long-poll wait of a receive, 0–20 s. */
  readonly receiveWaitSeconds?: number;
  /** Redrive policy: after `maxReceiveCount` receives the next receive moves the message here instead. */
  readonly redrive?: { readonly deadLetter: SimQueue; readonly maxReceiveCount: number };
  /**
   * Probability that a delete misses a stored copy, which then comes back after its visibility timeout
   * (at-least-once delivery). 0 by default.
   */
  readonly duplicateProbability?: number;
}

/** Counts of what happened to messages. */
export interface QueueStats {
  sent: number;
  /** Sends dropped as duplicates within the FIFO deduplication interval. */
  deduplicated: number;
  /** Messages handed out by receives. */
  received: number;
  deleted: number;
  /** Deletes with an outdated receipt handle: accepted, nothing deleted. */
  staleDeletes: number;
  /** Deletes that missed a copy (at-least-once): the message comes back. */
  missedDeletes: number;
  expired: number;
  redriven: number;
}

/** The operations of a queue model (standard or FIFO). */
export interface SimQueue {
  readonly name: string;
  readonly fifo: boolean;
  readonly requests: SqsRequestMeter;
  readonly stats: QueueStats;
  /** Messages stored (visible, delayed and in flight). */
  readonly size: number;
  /** Whether a receive now would find a message (a visible backlog). */
  hasVisible(): boolean;
  send(message: OutgoingMessage): string;
  sendBatch(messages: readonly OutgoingMessage[]): string[];
  receive(options?: ReceiveOptions): Promise<ReceivedMessage[]>;
  delete(receiptHandle: string): void;
  deleteBatch(receiptHandles: readonly string[]): { readonly failed: readonly BatchFailure[] };
  changeVisibility(receiptHandle: string, seconds: number): void;
  changeVisibilityBatch(entries: readonly { readonly receiptHandle: string; readonly seconds: number }[]): {
    readonly failed: readonly BatchFailure[];
  };
  /** Takes a message redriven from a source queue. */
  acceptRedrive(message: StoredMessage): void;
}
