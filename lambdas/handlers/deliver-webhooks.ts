import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { JosePayloadEncrypter } from '#adapters/crypto/jose-payload-encrypter';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointSecretStore } from '#adapters/dynamodb/endpoint-secret-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { HttpWebhookSender, timeoutsFrom } from '#adapters/http/http-webhook-sender';
import { createMetrics, logger } from '#adapters/observability';
import { createSecretSealer } from '#adapters/secrets/create-secret-sealer';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { CONSUMER_TIMEOUT_SECONDS, MAX_ATTEMPTS, PULL_WHEN_HELD } from '#config/delivery';
import { loadEnv } from '#config/env';
import { type BatchDeps, deliverBatch } from '#delivery/deliver-batch';
import { healthPolicyFrom } from '#delivery/endpoint-health-rule';
import { pullSettings } from '#delivery/held-invocation-rule';
import { REPLACE_AFTER_AGE_SECONDS, REPLACE_AT_RECEIVE_COUNT } from '#delivery/postponement-rule';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetrySchedule } from '#delivery/retry-rule';
import { parseUrlPolicy } from '#domain/webhook-url';
import { deliveryObserver } from './deliver-webhooks-telemetry';
import { queueHandler } from './queue-handler';

const env = loadEnv([
  'TABLE_NAME',
  'QUEUE_URL',
  'RETRY_SCHEDULE',
  'WEBHOOK_URL_POLICY',
  'DELIVERY_TIMEOUT_MS',
  'ENDPOINT_HEALTH',
  'SECRETS_KEY_ARN',
  'LOCAL_SECRETS_KEY_FILE',
]);
const documents = createDocumentClient();
const urlPolicy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');
const metrics = createMetrics();
const timeouts = timeoutsFrom(env.DELIVERY_TIMEOUT_MS);
const queue = new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL);
const deps: BatchDeps = {
  events: new DynamoEventStore(documents, env.TABLE_NAME),
  // Read fresh once per batch (no cache across batches): a changed URL or token applies to the next attempt.
  directory: new DynamoDirectoryStore(documents, env.TABLE_NAME),
  health: new DynamoEndpointHealthStore(documents, env.TABLE_NAME),
  // Opens the organizations' Ed25519 keys once per batch; KMS data keys stay cached across batches.
  sealer: createSecretSealer(env),
  endpointSecrets: new DynamoEndpointSecretStore(documents, env.TABLE_NAME),
  // An account's extra endpoints, read once per batch for an account that counts some (its routing).
  endpointStore: new DynamoEndpointStore(documents, env.TABLE_NAME),
  encrypter: new JosePayloadEncrypter(),
  healthPolicy: healthPolicyFrom(env.ENDPOINT_HEALTH),
  sender: new HttpWebhookSender(urlPolicy, timeouts),
  queue,
  schedule: env.RETRY_SCHEDULE ? parseRetrySchedule(env.RETRY_SCHEDULE) : DEFAULT_RETRY_SCHEDULE_SECONDS,
  maxAttempts: MAX_ATTEMPTS,
  urlPolicy,
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
