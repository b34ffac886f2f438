import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#config/telemetry';
import { maskIbans } from '#domain/iban';

/**
 * One JSON logger per function. Powertools reads `POWERTOOLS_SERVICE_NAME` / `POWERTOOLS_LOG_LEVEL`
 * itself; webhook tokens and API keys are never passed to it. Every string it writes, messages and
 * error texts included, has its IBANs masked (`DE89…3000`): an account number is personal data, and
 * the last four characters are enough to tell accounts apart when reading logs.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME, jsonReplacerFn: maskIbanStrings });

/** JSON replacer of the logger: masks IBANs in string values. */
export function maskIbanStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? maskIbans(value) : value;
}

/**
 * CloudWatch EMF metrics in the `Herald` namespace (flushed by the middy middleware). The utility's own
 * warnings (a bad dimension, a missing namespace) go to the function's logger, so they are JSON log lines
 * at `POWERTOOLS_LOG_LEVEL`, IBANs masked, like every other line.
 */
export function createMetrics(): Metrics {
  return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, logger });
}
