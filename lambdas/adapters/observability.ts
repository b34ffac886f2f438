import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#config/telemetry';

/**
 * One JSON logger per function. Powertools reads `POWERTOOLS_SERVICE_NAME` / `POWERTOOLS_LOG_LEVEL`
 * itself; webhook tokens and API keys are never passed to it.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME });

/** CloudWatch EMF metrics in the `Herald` namespace (flushed by the middy middleware). */
export function createMetrics(): Metrics {
  return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
}
