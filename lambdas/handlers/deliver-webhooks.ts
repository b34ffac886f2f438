import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { DynamoNoticeDeliveries, DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { createMetrics, logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { CONSUMER_TIMEOUT_SECONDS, MAX_ATTEMPTS, PULL_WHEN_HELD } from '#config/delivery';
import { loadEnv } from '#config/env';
import { type BatchDeps, deliverBatch } from '#delivery/deliver-batch';
import { healthPolicyFrom } from '#delivery/endpoint-health-rule';
import { pullSettings } from '#delivery/held-invocation-rule';
import { REPLACE_AFTER_AGE_SECONDS, REPLACE_AT_RECEIVE_COUNT } from '#delivery/postponement-rule';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetrySchedule } from '#delivery/retry-rule';
import { deliveryObserver } from './deliver-webhooks-telemetry';
import { queueHandler } from './queue-handler';
import { WEBHOOK_SENDING_ENV, webhookSendingDeps } from './webhook-sending-deps';

const env = loadEnv([
  ...WEBHOOK_SENDING_ENV,
  'QUEUE_URL',
  'RETRY_SCHEDULE',
  'ENDPOINT_HEALTH',
  'PUBLIC_BASE_URL',
]);
const documents = createDocumentClient();
const metrics = createMetrics();
const { timeouts, ...sending } = webhookSendingDeps(env, documents);
const queue = new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL);
const health = new DynamoEndpointHealthStore(documents, env.TABLE_NAME);
const deps: BatchDeps = {
  events: new DynamoEventStore(documents, env.TABLE_NAME),
  // A fanned-out event's deliveries, one item per routed endpoint.
  deliveries: new DynamoEndpointDeliveries(documents, env.TABLE_NAME),
  // Read fresh once per batch (no cache across batches): a changed URL or token applies to the next attempt.
  directory: new DynamoDirectoryStore(documents, env.TABLE_NAME),
  health,
  // Written only when an endpoint's health calls for a notice (never on a healthy delivery).
  notices: new DynamoOperationalLog(documents, env.TABLE_NAME),
  // Each notice's delivery to its organization's operational webhook, on the notice's item.
  operational: {
    deliveries: new DynamoNoticeDeliveries(documents, env.TABLE_NAME),
    baseUrl: env.PUBLIC_BASE_URL ?? '',
    // The operational webhook's health, on an item of its own: never an account's endpoint's.
    health,
  },
  // The sealer opens the organizations' Ed25519 keys once per batch; an account's extra endpoints are read
  // once per batch for an account that counts some (its routing).
  ...sending,
  healthPolicy: healthPolicyFrom(env.ENDPOINT_HEALTH),
  queue,
  schedule: env.RETRY_SCHEDULE ? parseRetrySchedule(env.RETRY_SCHEDULE) : DEFAULT_RETRY_SCHEDULE_SECONDS,
  maxAttempts: MAX_ATTEMPTS,
  leaseMs: CONSUMER_TIMEOUT_SECONDS * 1000,
  replaceAtReceiveCount: REPLACE_AT_RECEIVE_COUNT,
  replaceAfterAgeSeconds: REPLACE_AFTER_AGE_SECONDS,
  now: Date.now,
  ...deliveryObserver(logger, metrics),
};

const settings = pullSettings(PULL_WHEN_HELD, timeouts.totalMs);

/** Resolves after `ms`; the timer does not keep a finished invocation's process alive. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * SQS consumer: one attempt per message, retries by visibility timeout, at most 20 per cycle. An
 * invocation held by slow attempts pulls more messages from the queue within its remaining time.
 */
export const handler = queueHandler(metrics, (messages, context) =>
  deliverBatch(
    {
      ...deps,
      pull: {
        queue,
        settings,
        pollMs: PULL_WHEN_HELD.pollMs,
        sleep,
        remainingMs: () => context.getRemainingTimeInMillis(),
        observePulled: (count) => logger.debug('pulled messages while held', { count }),
        observeReleased: (released, expired) =>
          logger.debug('released messages held for a URL that answered', { released, expired }),
      },
    },
    messages,
  ),
);
