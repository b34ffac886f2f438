import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { createMetrics, logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { MAX_ATTEMPTS } from '#config/delivery';
import { loadEnv } from '#config/env';
import { DELIVERY_METRICS } from '#config/telemetry';
import { eventIdOf } from '#use-cases/deliver-batch';
import { reconcileDeadLetter } from '#use-cases/reconcile-dead-letter';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const metrics = createMetrics();
const deps = {
  events: new DynamoEventStore(createDocumentClient(), env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
  maxAttempts: MAX_ATTEMPTS,
};

/** DLQ consumer: requeues events with attempts left, marks exhausted ones `failed`. */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics))
  .handler(async (event) => {
    const failures: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const id = eventIdOf(record.body);
        if (id === undefined)
          return logger.error('Malformed dead letter dropped', { messageId: record.messageId });
        try {
          const outcome = await reconcileDeadLetter(deps, id);
          logger.info('Dead letter reconciled', { eventId: id, outcome });
          if (outcome === 'requeued') metrics.addMetric(DELIVERY_METRICS.reconciled, MetricUnit.Count, 1);
          if (outcome === 'exhausted') metrics.addMetric(DELIVERY_METRICS.exhausted, MetricUnit.Count, 1);
        } catch (error) {
          logger.error('Dead letter reconciliation failed; it will be retried', { eventId: id, error });
          failures.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  });
