import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { createMetrics, logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { toQueueMessages } from '#adapters/sqs/sqs-records';
import { MAX_ATTEMPTS } from '#config/delivery';
import { loadEnv } from '#config/env';
import { DELIVERY_METRICS } from '#config/telemetry';
import { type ReconcileBatchDeps, reconcileBatch } from '#use-cases/delivery/reconcile-dead-letter';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const metrics = createMetrics();
const deps: ReconcileBatchDeps = {
  events: new DynamoEventStore(createDocumentClient(), env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
  maxAttempts: MAX_ATTEMPTS,
  observe: (id, outcome) => {
    logger.info('Dead letter reconciled', { eventId: id, outcome });
    if (outcome === 'requeued') metrics.addMetric(DELIVERY_METRICS.reconciled, MetricUnit.Count, 1);
    if (outcome === 'exhausted') metrics.addMetric(DELIVERY_METRICS.exhausted, MetricUnit.Count, 1);
  },
  observeError: (messageId, error) =>
    logger.error('Dead letter reconciliation failed; it will be retried', { messageId, error }),
};

/** DLQ consumer: requeues events with attempts left, marks exhausted ones `failed`. */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics))
  .handler(async (event) => {
    const keep = await reconcileBatch(deps, toQueueMessages(event.Records));
    return { batchItemFailures: keep.map((itemIdentifier) => ({ itemIdentifier })) };
  });
