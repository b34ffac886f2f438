/**
 * Logs and EMF metrics of the delivery consumer: wiring of `deliver-webhooks.ts`, not a function of its
 * own. Every attempt is logged with its account, so per-endpoint attempts, failures and latency come from
 * a Logs Insights query (the dashboard has it) rather than a metric per account; only endpoint state
 * changes, which are rare, carry per-endpoint dimensions: the organization and the endpoint's id
 * (`ep_…`), never the IBAN (metrics are not masked like the logs, and an account number is personal).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { DELIVERY_METRICS, ENDPOINT_DIMENSIONS } from '#config/telemetry';
import type { BatchDeps } from '#delivery/deliver-batch';
import type { EndpointChange } from '#delivery/endpoint-health';
import { CERTIFICATE_WARNING_DAYS, daysLeft } from '#domain/endpoint-security/client-certificate';

const CHANGE_METRICS: Readonly<Record<EndpointChange, string | undefined>> = {
  degraded: undefined,
  'circuit-opened': DELIVERY_METRICS.circuitOpened,
  recovered: DELIVERY_METRICS.endpointRecovered,
  disabled: DELIVERY_METRICS.endpointDisabled,
};

/** The consumer's observers, writing to the function's logger and metrics. */
export function deliveryObserver(
  logger: Logger,
  metrics: Metrics,
): Pick<BatchDeps, 'observe' | 'observeError' | 'observeReplaced'> {
  return {
    observe: (id, outcome) => {
      if (outcome.kind === 'waiting') {
        logger.debug('Ordered event waits', { eventId: id, reason: outcome.reason });
        metrics.addMetric(DELIVERY_METRICS.orderWaiting, MetricUnit.Count, 1);
        return;
      }
      if (outcome.kind === 'deferred') {
        logger.debug('Delivery deferred', {
          eventId: id,
          reason: outcome.reason,
          seconds: outcome.retryAfterSeconds,
        });
        metrics.addMetric(DELIVERY_METRICS.deferred, MetricUnit.Count, 1);
        return;
      }
      if ('attempt' in outcome && outcome.attempt) {
        const { responseStatus, responseTimeMs } = outcome.attempt;
        const { account, webhookRetries: attempt } = outcome.event;
        const endpoint = outcome.endpoint;
        logger.info('Webhook attempt', {
          eventId: id,
          account,
          attempt,
          outcome: outcome.kind,
          responseStatus,
          responseTimeMs,
          ...(endpoint ? { endpointState: endpoint.health.state, endpointChange: endpoint.change } : {}),
        });
        if (outcome.notSentError !== undefined) {
          // Recorded as a failed attempt saying why in short; the error itself is for the operator.
          logger.error('Webhook attempt not made; recorded as failed', {
            eventId: id,
            account,
            error: outcome.notSentError,
          });
        }
        if (outcome.endpointError !== undefined) {
          // Advisory: the attempt is recorded; the endpoint's state catches up with its next attempt.
          logger.warn('Endpoint health write failed', { eventId: id, account, error: outcome.endpointError });
        }
        if (outcome.noticeError !== undefined) {
          // The endpoint's notice mark stays behind: the next consumer that sees the endpoint stores them.
          logger.warn('Operational notice write failed', {
            eventId: id,
            account,
            error: outcome.noticeError,
          });
        }
        metrics.addMetric(
          outcome.kind === 'delivered' ? DELIVERY_METRICS.succeeded : DELIVERY_METRICS.failed,
          MetricUnit.Count,
          1,
        );
        metrics.addMetric(DELIVERY_METRICS.attemptLatency, MetricUnit.Milliseconds, responseTimeMs);
        const expiresAt = outcome.clientCertificateExpiresAt;
        const days = expiresAt === undefined ? undefined : daysLeft(expiresAt, Date.now());
        if (days !== undefined && days < CERTIFICATE_WARNING_DAYS) {
          logger.warn('Client certificate expiring', {
            account,
            organization: outcome.event.orgId,
            expiresAt,
            days,
          });
          metrics.addMetric(DELIVERY_METRICS.certificateExpiring, MetricUnit.Count, 1);
        }
        const changeMetric = endpoint?.change && CHANGE_METRICS[endpoint.change];
        if (endpoint?.change) {
          logger.info('Endpoint state changed', {
            account,
            endpoint: endpoint.endpointId,
            organization: outcome.event.orgId,
            change: endpoint.change,
            state: endpoint.health.state,
            reason: endpoint.health.reason,
          });
        }
        if (changeMetric) {
          metrics.addMetric(changeMetric, MetricUnit.Count, 1);
          if (endpoint?.endpointId !== undefined) {
            const single = metrics.singleMetric();
            single.addDimensions({
              [ENDPOINT_DIMENSIONS.organization]: outcome.event.orgId,
              [ENDPOINT_DIMENSIONS.endpoint]: endpoint.endpointId,
            });
            single.addMetric(changeMetric, MetricUnit.Count, 1);
          }
        }
      } else if (outcome.kind === 'refused') {
        // Its account is another organization's now: nothing was sent; worth an operator's look.
        logger.warn('Delivery refused: the account belongs to another organization', {
          eventId: id,
          reason: outcome.reason,
        });
      } else {
        logger.info('Delivery message handled without an attempt', {
          eventId: id,
          outcome: outcome.kind,
          ...('reason' in outcome ? { reason: outcome.reason } : {}),
          // A fanned-out event's own message: how many endpoints' messages it sent.
          ...(outcome.kind === 'routed' ? { endpoints: outcome.endpoints } : {}),
        });
      }
      if (outcome.kind === 'exhausted') metrics.addMetric(DELIVERY_METRICS.exhausted, MetricUnit.Count, 1);
      if (outcome.kind === 'exhausted' && outcome.ordered) {
        logger.warn('Ordered event failed for good; the events after it go on', {
          eventId: id,
          account: outcome.event.account,
          sequence: outcome.event.sequence,
        });
        metrics.addMetric(DELIVERY_METRICS.orderedFailed, MetricUnit.Count, 1);
      }
    },
    observeError: (messageId, error) =>
      logger.error('Delivery message failed; it will be retried', { messageId, error }),
    observeReplaced: (id, receiveCount) => {
      logger.info('Delivery message replaced by a fresh one', { eventId: id, receiveCount });
      metrics.addMetric(DELIVERY_METRICS.replaced, MetricUnit.Count, 1);
    },
  };
}
