/**
 * Names of the stack's alarms and dashboard metrics. Those the handlers emit live in `lambdas/config/telemetry.ts`,
 * which both sides import.
 */

export { DELIVERY_METRICS, ENDPOINT_DIMENSIONS, METRICS_NAMESPACE, SERVICE_NAME } from '#config/telemetry';

/** Requests the authorizer could not decide (it failed or timed out), counted from the access logs. */
export const AUTHORIZER_FAILURES_METRIC = 'AuthorizerFailures';
