import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { HttpWebhookSender, timeoutsFrom } from '#adapters/http/http-webhook-sender';
import { createMetrics, logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { CONSUMER_TIMEOUT_SECONDS, MAX_ATTEMPTS } from '#config/delivery';
import { loadEnv } from '#config/env';
import { DELIVERY_METRICS } from '#config/telemetry';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetrySchedule } from '#domain/retry-schedule';
import { parseUrlPolicy } from '#domain/webhook-url';
import { CachedDirectory } from '#use-cases/cached-directory';
import { type BatchDeps, deliverBatch } from '#use-cases/deliver-batch';

const env = loadEnv([
  'TABLE_NAME',
  'QUEUE_URL',
  'RETRY_SCHEDULE',
  'WEBHOOK_URL_POLICY',
  'DELIVERY_TIMEOUT_MS',
]);
const documents = createDocumentClient();
const urlPolicy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');
const metrics = createMetrics();
const deps: BatchDeps = {
  events: new DynamoEventStore(documents, env.TABLE_NAME),
  directory: new CachedDirectory(new DynamoDirectoryStore(documents, env.TABLE_NAME), 30_000),
  sender: new HttpWebhookSender(urlPolicy, timeoutsFrom(env.DELIVERY_TIMEOUT_MS)),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
  schedule: env.RETRY_SCHEDULE ? parseRetrySchedule(env.RETRY_SCHEDULE) : DEFAULT_RETRY_SCHEDULE_SECONDS,
  maxAttempts: MAX_ATTEMPTS,
  urlPolicy,
  leaseMs: CONSUMER_TIMEOUT_SECONDS * 1000,
  observe: (id, outcome) => {
    if ('attempt' in outcome && outcome.attempt) {
      const { responseStatus, responseTimeMs } = outcome.attempt;
      const attempt = outcome.event.webhookRetries;
      logger.info('Webhook attempt', {
        eventId: id,
        account: outcome.event.account,
        attempt,
        outcome: outcome.kind,
        responseStatus,
        responseTimeMs,
      });
      metrics.addMetric(
        outcome.kind === 'delivered' ? DELIVERY_METRICS.succeeded : DELIVERY_METRICS.failed,
        MetricUnit.Count,
        1,
      );
      metrics.addMetric(DELIVERY_METRICS.attemptLatency, MetricUnit.Milliseconds, responseTimeMs);
    } else {
      logger.info('Delivery message handled without an attempt', { eventId: id, outcome: outcome.kind });
    }
    if (outcome.kind === 'exhausted') metrics.addMetric(DELIVERY_METRICS.exhausted, MetricUnit.Count, 1);
  },
  observeError: (messageId, error) =>
    logger.error('Delivery message failed; it will be retried', { messageId, error }),
};

/** SQS consumer: one attempt per message, retries by visibility timeout, at most 20 per cycle. */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics))
  .handler(async (event) => {
    const keep = await deliverBatch(deps, event.Records);
    return { batchItemFailures: keep.map((itemIdentifier) => ({ itemIdentifier })) };
  });
