import { AccessLogFormat, AccessLogField as F } from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { AUTHORIZER_FAILURES_METRIC, METRICS_NAMESPACE, SERVICE_NAME } from './telemetry';

/**
 * API Gateway's error response types of an authorizer that failed, as opposed to one that rejected a
 * key (UNAUTHORIZED). The Lambda's own Errors metric cannot tell the two apart: a TOKEN authorizer
 * rejects a key by failing with "Unauthorized".
 */
const AUTHORIZER_FAILURE_TYPES = ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'];

/**
 * One JSON object per request. Every value is a quoted string, because API Gateway writes `-` for a
 * missing value and an unquoted `-` would break the JSON. The Authorization header, the raw path and
 * the query string are never logged (they carry IBANs); `orgId` comes from the authorizer's context.
 */
export function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      service: SERVICE_NAME,
      requestId: F.contextRequestId(),
      extendedRequestId: F.contextExtendedRequestId(),
      requestTimeEpoch: F.contextRequestTimeEpoch(),
      sourceIp: F.contextIdentitySourceIp(),
      userAgent: F.contextIdentityUserAgent(),
      httpMethod: F.contextHttpMethod(),
      // The route template (`/accounts/{iban}`), never the raw path: paths carry IBANs.
      resourcePath: F.contextResourcePath(),
      protocol: F.contextProtocol(),
      status: F.contextStatus(),
      responseLength: F.contextResponseLength(),
      responseLatency: F.contextResponseLatency(),
      integrationStatus: F.contextIntegrationStatus(),
      integrationLatency: F.contextIntegrationLatency(),
      orgId: F.contextAuthorizer('orgId'),
      authorizerStatus: F.contextAuthorizerStatus(),
      authorizerLatency: F.contextAuthorizerLatency(),
      authorizerError: F.contextAuthorizerError(),
      errorResponseType: F.contextErrorResponseType(),
      errorMessage: F.contextErrorMessage(),
      xrayTraceId: F.contextXrayTraceId(),
    }),
  );
}

/** Counts {@link AUTHORIZER_FAILURES_METRIC} from the access logs, per `service`. */
export function authorizerFailureFilter(scope: Construct, accessLogs: logs.ILogGroup): void {
  new logs.MetricFilter(scope, 'AuthorizerFailureFilter', {
    logGroup: accessLogs,
    metricNamespace: METRICS_NAMESPACE,
    metricName: AUTHORIZER_FAILURES_METRIC,
    filterPattern: logs.FilterPattern.any(
      ...AUTHORIZER_FAILURE_TYPES.map((type) =>
        logs.FilterPattern.stringValue('$.errorResponseType', '=', type),
      ),
    ),
    metricValue: '1',
    dimensions: { service: '$.service' },
  });
}
