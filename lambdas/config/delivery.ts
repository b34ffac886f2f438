/**
 * Delivery limits and queue shapes: attempts per cycle, timeouts, the queues and their event sources. The consumer enforces them and the stack builds the queues from them; imports nothing.
 */
/** 14 days, SQS's maximum: longer than the whole default retry schedule (about 54 hours). */
export const QUEUE_RETENTION_SECONDS = 14 * 24 * 60 * 60;

/**
 * Delivery attempts per webhook cycle. The queue's redrive limit equals it, so a message can never be
 * received a 21st time; the attempt count itself lives in DynamoDB (receive counts overcount).
 */
export const MAX_ATTEMPTS = 20;

/**
 * Attempts one event may accumulate over all its cycles (a redelivery starts a new cycle of 20). Attempts
 * live in the event item, which DynamoDB caps at 400 KB; 60 attempts with 4 KiB bodies stay far below.
 */
export const MAX_ATTEMPTS_PER_EVENT = 3 * MAX_ATTEMPTS;

/** Consumer Lambda timeout: ten concurrent deliveries of at most 10 s each, serialised in the worst case, plus margin. */
export const CONSUMER_TIMEOUT_SECONDS = 120;

/**
 * SQS keeps a message hidden at most 12 hours from its receive, so a retry can be postponed by at most
 * that minus the time the consumer may already have spent on it.
 */
export const MAX_POSTPONE_SECONDS = 12 * 60 * 60 - CONSUMER_TIMEOUT_SECONDS;

/** The delivery queue and its dead-letter queue. */
export const DELIVERY_QUEUE = {
  /** AWS advises at least six times the consumer's timeout for an SQS event source. */
  visibilityTimeoutSeconds: 6 * CONSUMER_TIMEOUT_SECONDS,
  retentionPeriodSeconds: QUEUE_RETENTION_SECONDS,
  maxReceiveCount: MAX_ATTEMPTS,
  receiveWaitTimeSeconds: 20,
} as const;

/** The dead-letter queue keeps messages as long as the delivery queue does, for the reconciler. */
export const DEAD_LETTER_QUEUE = {
  retentionPeriodSeconds: QUEUE_RETENTION_SECONDS,
  /** The DLQ reconciler only reads and re-sends: 60 s is plenty. */
  visibilityTimeoutSeconds: 60,
} as const;

/** SQS event source settings of the delivery consumer (and of the local runtime's emulation of it). */
export const CONSUMER_EVENT_SOURCE = {
  batchSize: 10,
  reportBatchItemFailures: true,
} as const;

/** SQS event source settings of the DLQ reconciler. */
export const RECONCILER_EVENT_SOURCE = {
  batchSize: 10,
  reportBatchItemFailures: true,
} as const;

/** Stream event source settings of the forwarder (batches are sent to SQS ten at a time). */
export const FORWARDER_EVENT_SOURCE = {
  batchSize: 100,
  maxBatchingWindowSeconds: 1,
  startingPosition: 'TRIM_HORIZON',
  /** Retry a failing batch by halves so one bad record cannot hold the others back. */
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
} as const;

/** SQS's longest `DelaySeconds` on a new message. */
export const MAX_MESSAGE_DELAY_SECONDS = 900;

/**
 * Every deferral is a receive, and the queue dead-letters a message on its 21st. A message postponed at
 * this receive count or later is replaced by a fresh one (new receive count, new retention clock) and
 * the old one deleted, so deferrals never reach the dead-letter queue and its alarm.
 */
export const REPLACE_AT_RECEIVE_COUNT = DELIVERY_QUEUE.maxReceiveCount - 2;

/**
 * SQS deletes a message this long after it was first sent, however often it was postponed. A message that
 * would still be on the queue by then (one day of margin) is replaced by a fresh one instead.
 */
export const REPLACE_AFTER_AGE_SECONDS = QUEUE_RETENTION_SECONDS - 24 * 60 * 60;
