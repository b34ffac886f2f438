import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { createMetrics, logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { MAX_ATTEMPTS } from '#config/delivery';
import { loadEnv } from '#config/env';
import { DELIVERY_METRICS } from '#config/telemetry';
import { type ReconcileBatchDeps, reconcileBatch } from '#use-cases/delivery/reconcile-dead-letter';
import { queueHandler } from './queue-handler';

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
export const handler = queueHandler(metrics, (messages) => reconcileBatch(deps, messages));
