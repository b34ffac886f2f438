/**
 * Names shared by the handlers' Powertools metrics and the stack's alarms and dashboard. The handlers
 * spell them in `lambdas/adapters/observability.ts` and the delivery handlers; these must match.
 */

/** Powertools service name of every function: the `service` dimension of Herald's metrics. */
export const SERVICE_NAME = 'herald';

/** CloudWatch namespace of Herald's own metrics (Powertools EMF and the access-log metric filter). */
export const METRICS_NAMESPACE = 'Herald';

/** Metrics the delivery handlers emit (EMF, dimension `service`). `AttemptLatency` is in milliseconds. */
export const DELIVERY_METRICS = {
  succeeded: 'DeliverySucceeded',
  failed: 'DeliveryFailed',
  attemptLatency: 'AttemptLatency',
  exhausted: 'EventsExhausted',
  reconciled: 'DeadLettersReconciled',
} as const;

/** Requests the authorizer could not decide (it failed or timed out), counted from the access logs. */
export const AUTHORIZER_FAILURES_METRIC = 'AuthorizerFailures';
