/**
 * What of a request may be logged (with `POWERTOOLS_LOGGER_LOG_EVENT` on): the event with the values of
 * its credential headers replaced. `Authorization` carries an organization's API key (Bearer) or an
 * operator's SigV4 signature, `X-Amz-Security-Token` an operator's session token, `Cookie` whatever a
 * browser sends; header names are case-insensitive, and API Gateway passes them as the client spelled them.
 */
import type { APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';

/** What a credential's value is logged as. */
export const REDACTED = '[redacted]';

/** Header names (lower case) whose values are never logged. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-amz-security-token', 'cookie']);

/** The event with every credential header's value (single- and multi-value) replaced by {@link REDACTED}. */
export function loggableRequest(event: APIGatewayProxyEvent): APIGatewayProxyEvent {
  return {
    ...event,
    headers: redact(event.headers, () => REDACTED),
    multiValueHeaders: redact(event.multiValueHeaders, (values) => values?.map(() => REDACTED)),
  };
}

/** The TOKEN authorizer's event without the token it checks. */
export function loggableTokenRequest(event: APIGatewayTokenAuthorizerEvent): APIGatewayTokenAuthorizerEvent {
  return { ...event, authorizationToken: REDACTED };
}

function redact<T extends Record<string, unknown>>(headers: T, mask: (value: T[string]) => T[string]): T {
  if (!headers) return headers;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      CREDENTIAL_HEADERS.has(name.toLowerCase()) ? mask(value as T[string]) : value,
    ]),
  ) as T;
}
