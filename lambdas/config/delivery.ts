/**
 * Delivery limits and queue shapes: attempts per cycle, timeouts, the queues, their event sources and
 * what SQS allows. The stack builds the queues from them and the local runtime emulates them; the rules
 * built on them (when a message is postponed or replaced, cycles per event) are in
 * `lambdas/delivery/` (its `*-rule.ts` files). Imports nothing.
 */
/** 14 days, SQS's maximum: longer than the whole default retry schedule (about 54 hours). */
export const QUEUE_RETENTION_SECONDS = 14 * 24 * 60 * 60;

/**
 * Delivery attempts per webhook cycle. The queue's redrive limit equals it, so a message can never be
 * received a 21st time; the attempt count itself lives in DynamoDB (receive counts overcount).
 */
export const MAX_ATTEMPTS = 20;

/** Consumer Lambda timeout: ten concurrent deliveries of at most 10 s each, serialised in the worst case, plus margin. */
export const CONSUMER_TIMEOUT_SECONDS = 120;

/** SQS's longest visibility timeout: a received message can be hidden at most 12 hours. */
export const MAX_VISIBILITY_TIMEOUT_SECONDS = 12 * 60 * 60;

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
 * A consumer invocation whose every message is a slow attempt pulls more messages from the delivery
 * queue itself (`delivery/held-invocation-rule.ts`), so a receiver that starts hanging holds its own
 * attempts only, not everyone's: after `slowAfterMs` an attempt counts as slow (a healthy receiver
 * answers within a few tens of ms; pulling on a false alarm costs a few SQS requests), at most `receiveMax` per
 * ReceiveMessage, `maxAttemptsInFlight` attempts at once and `maxExtraMessages` per invocation, while
 * the remaining time covers one attempt timeout plus `marginMs`.
 */
export const PULL_WHEN_HELD = {
  slowAfterMs: 300,
  /**
   * A pulled message waits without an attempt once its URL has had an attempt in flight here this long
   * with no answer since. A receiver that then answers quickly (a healthy one that was slow once) gets
   * the messages deferred for it back at once (`answerReleasesHold`), so the hold can come early, which
   * leaves a bad receiver fewer first-wave attempts and the fast events behind it less wait. Longer than
   * `slowAfterMs`: a healthy receiver on a loaded machine answers in some hundreds of ms, and a hold it
   * never earned costs a deferral and a release.
   */
  heldAfterMs: 500,
  receiveMax: 10,
  /**
   * Attempts in flight at once in one invocation (its batch's and the pulled ones): bounds its sockets
   * (Lambda allows 1,024 descriptors) and memory when many receivers are slow at once.
   */
  maxAttemptsInFlight: 100,
  /**
   * A held invocation mostly defers its held URLs' messages without an attempt (cheap, quick work), so
   * this is a sanity bound, not the working limit: 100 receives of ten.
   */
  maxExtraMessages: 1_000,
  marginMs: 5_000,
  /** How often a held invocation looks again whether to pull. */
  pollMs: 100,
  /**
   * A pull's ReceiveMessage waits up to this long for a message (a long poll; SQS answers as soon as
   * one is there). A short poll samples only some of SQS's servers and may answer empty while messages
   * wait; a long poll asks them all, and an empty queue costs one request a second, not ten.
   */
  receiveWaitSeconds: 1,
} as const;
