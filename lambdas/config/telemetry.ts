/**
 * Telemetry names the handlers emit and the stack's alarms and dashboard read.
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
  /** Messages postponed without an attempt (circuit open, endpoint busy). */
  deferred: 'DeliveryDeferred',
  /** Deferred messages handed to a fresh message before the redrive limit or the retention. */
  replaced: 'DeliveryMessagesReplaced',
  /** Endpoint state changes; also emitted with an `account` dimension, so the metric names the endpoint. */
  circuitOpened: 'CircuitOpened',
  endpointRecovered: 'EndpointRecovered',
  endpointDisabled: 'EndpointDisabled',
} as const;
