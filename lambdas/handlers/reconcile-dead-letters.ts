import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { DynamoNoticeDeliveries, DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { createMetrics, logger } from '#adapters/observability';
import { MAX_ATTEMPTS } from '#config/delivery';
import { DELIVERY_METRICS } from '#config/telemetry';
import { type ReconcileBatchDeps, reconcileBatch } from '#delivery/dead-letter';
import { queueHandler } from './queue-handler';
import { redeliveryWiring } from './redelivery-deps';

const { deps: redelivery, documents, tableName } = redeliveryWiring();
const metrics = createMetrics();
const deps: ReconcileBatchDeps = {
  ...redelivery,
  directory: new DynamoDirectoryStore(documents, tableName),
  deliveries: new DynamoEndpointDeliveries(documents, tableName),
  operational: { deliveries: new DynamoNoticeDeliveries(documents, tableName) },
  maxAttempts: MAX_ATTEMPTS,
  notices: new DynamoOperationalLog(documents, tableName),
  observe: (id, outcome) => {
    logger.info('Dead letter reconciled', { eventId: id, outcome });
    if (outcome === 'requeued') metrics.addMetric(DELIVERY_METRICS.reconciled, MetricUnit.Count, 1);
    if (outcome === 'exhausted' || outcome === 'exhausted-ordered')
      metrics.addMetric(DELIVERY_METRICS.exhausted, MetricUnit.Count, 1);
    if (outcome === 'exhausted-ordered') {
      logger.warn('Ordered event failed for good; the events after it go on', { eventId: id });
      metrics.addMetric(DELIVERY_METRICS.orderedFailed, MetricUnit.Count, 1);
    }
  },
  observeError: (messageId, error) =>
    logger.error('Dead letter reconciliation failed; it will be retried', { messageId, error }),
};

/** DLQ consumer: requeues events (and notices) with attempts left, marks exhausted ones `failed`. */
export const handler = queueHandler(metrics, (messages) => reconcileBatch(deps, messages));
