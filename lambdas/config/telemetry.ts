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
  /** Messages of ordered accounts' events waiting for an earlier event to settle (no attempt). */
  orderWaiting: 'OrderedEventWaiting',
  /**
   * Events of ordered accounts that failed for good (attempts exhausted, or 410): the events after them
   * went on without them. Alarmed.
   */
  orderedFailed: 'OrderedEventFailed',
  /** Deferred messages handed to a fresh message before the redrive limit or the retention. */
  replaced: 'DeliveryMessagesReplaced',
  /**
   * Endpoint state changes; also emitted with the dimensions {@link ENDPOINT_DIMENSIONS}, so the metric
   * names the endpoint without its IBAN.
   */
  circuitOpened: 'CircuitOpened',
  endpointRecovered: 'EndpointRecovered',
  endpointDisabled: 'EndpointDisabled',
  /**
   * Attempts that presented a client certificate expiring within `CERTIFICATE_WARNING_DAYS` (14 days);
   * the consumer's log "Client certificate expiring" names the endpoint.
   */
  certificateExpiring: 'ClientCertificateExpiring',
} as const;

/**
 * The dimensions of the per-endpoint copies of the endpoint-change metrics (besides `service`): the
 * organization's id and the endpoint's id (`ep_…`, shown as `endpoint_id` on the account), never the IBAN.
 */
export const ENDPOINT_DIMENSIONS = { organization: 'organization', endpoint: 'endpoint' } as const;
