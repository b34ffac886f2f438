import { CONSUMER_TIMEOUT_SECONDS, DEAD_LETTER_QUEUE } from './delivery';
import type { FunctionKey } from './functions';

/** Memory and timeout of one function, and why. */
export interface FunctionSizing {
  /** MB. On Lambda, CPU share grows with memory, so this also sets cold-start and TLS speed. */
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  /** Shown as the function description, so the reason travels with the deployed function. */
  readonly reason: string;
}

/** API Gateway's REST integration timeout: a handler that runs longer can no longer answer anyone. */
const API_TIMEOUT_SECONDS = 29;

/** The timeout of a caller's handler that does a few bounded reads and writes. */
const BOUNDED_CALL_TIMEOUT_SECONDS = 10;

/**
 * A handler on a caller's path whose `work` is a few bounded reads and writes: 512 MB (see
 * {@link FUNCTION_SIZING}) and a timeout that only a stuck call reaches, said in its reason.
 */
function boundedCall(work: string): FunctionSizing {
  return {
    memoryMb: 512,
    timeoutSeconds: BOUNDED_CALL_TIMEOUT_SECONDS,
    reason: `${work}; ${BOUNDED_CALL_TIMEOUT_SECONDS} s bounds a stuck call.`,
  };
}

/**
 * Sizing of every function. Handlers on a caller's path get 512 MB: their cold start (parsing a
 * ~400 KB bundle with the SDK inside) is CPU-bound, and Lambda's CPU share doubles from 256 to 512 MB
 * for a few cents per million calls. Handlers without I/O get less.
 */
export const FUNCTION_SIZING: Readonly<Record<FunctionKey, FunctionSizing>> = {
  authorizer: {
    memoryMb: 512,
    timeoutSeconds: 5,
    reason:
      'Every uncached API call waits on it (one GetItem); 5 s fails fast with a 500 instead of hanging.',
  },
  health: { memoryMb: 128, timeoutSeconds: 3, reason: 'No I/O: the minimum suffices.' },
  openapi: { memoryMb: 256, timeoutSeconds: 3, reason: 'Serves a static document; no data access.' },
  portal: { memoryMb: 128, timeoutSeconds: 3, reason: 'Serves one page built at cold start; no I/O.' },
  portalSession: boundedCall(
    'Sign-in and sign-out wait on it: a few bounded reads and writes of one link and one key',
  ),
  eventTypes: boundedCall(
    "Reads the catalog's names and each type's head (GetItem), and the versions it has not kept yet; answers up to about 6 MB",
  ),
  listEvents: boundedCall('One index Query plus one BatchGetItem of up to 100 items'),
  getEvent: boundedCall('One GetItem'),
  redeliverEvent: {
    memoryMb: 512,
    timeoutSeconds: API_TIMEOUT_SECONDS,
    reason:
      'Redelivery: a read, an update, a SendMessage. Replay: a read of up to 100 events (MBs if large), 100 updates ten at a time, ten SendMessageBatch: bounded, but seconds on a throttled table, so the API wait.',
  },
  resetWebhooks: {
    memoryMb: 512,
    timeoutSeconds: API_TIMEOUT_SECONDS,
    reason: 'May reset many events of an organization; runs as long as API Gateway waits (29 s).',
  },
  listAccounts: boundedCall('One index Query'),
  getAccount: boundedCall('One GetItem'),
  getDeliveryStats: boundedCall('One GetItem, one index Query and one BatchGetItem of up to 100 events'),
  manageSettings: {
    memoryMb: 512,
    timeoutSeconds: BOUNDED_CALL_TIMEOUT_SECONDS,
    reason: 'An organization key changes a webhook URL or rotates its token: one read and one update.',
  },
  publishEvent: {
    memoryMb: 512,
    timeoutSeconds: API_TIMEOUT_SECONDS,
    reason:
      "The gateway's publish path: one event is two reads and two conditional puts; a batch of up to 100 reads their claims, takes a ticket and stores them 25 at a time, and may wait for a duplicate's publish under way: as long as API Gateway waits (29 s).",
  },
  administer: {
    memoryMb: 512,
    timeoutSeconds: API_TIMEOUT_SECONDS,
    reason:
      'Operator routes; requeue, reset and enable may touch many events, so it runs as long as API Gateway waits.',
  },
  enableEndpoint: {
    memoryMb: 512,
    timeoutSeconds: API_TIMEOUT_SECONDS,
    reason:
      "One UpdateItem; with recover_since it redelivers the account's events, as long as API Gateway waits.",
  },
  sendTestEvent: {
    memoryMb: 512,
    timeoutSeconds: API_TIMEOUT_SECONDS,
    reason:
      'A caller waits on it: two reads, the keys opened, one POST to a receiver (10 s at most) and one write; as long as API Gateway waits.',
  },
  forwarder: {
    memoryMb: 256,
    timeoutSeconds: 30,
    reason: 'Batches of up to 100 stream records sent as SendMessageBatch of 10; network-bound.',
  },
  consumer: {
    memoryMb: 256,
    timeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
    reason:
      'Waits on receivers for most of its run (billed per GB-second), so the least memory that keeps TLS quick.',
  },

  reconciler: {
    memoryMb: 256,
    // An SQS event source needs the queue's visibility timeout >= the function timeout; AWS advises 6x.
    timeoutSeconds: DEAD_LETTER_QUEUE.visibilityTimeoutSeconds / 6,
    reason: 'Reads and re-sends dead letters; timeout is a sixth of the DLQ visibility timeout.',
  },

  noticeSummary: {
    memoryMb: 256,
    // Its reads are bounded (an hour of minutes, a capped count of index entries) and it runs every minute.
    timeoutSeconds: 50,
    reason:
      'Each minute: counts the operational notices of the minutes since its last run, publishes one message; 50 s stays under the schedule.',
  },
};
