/**
 * A minimal API Gateway proxy event for the request parsers of `lambdas/http/`: a JSON body (or raw
 * text), query parameters and path parameters.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** The parts of a request a parser reads. */
export interface ApiEventParts {
  /** Sent as JSON unless it is a string (then sent as is); absent: no body. */
  readonly body?: unknown;
  readonly query?: Record<string, string[]>;
  readonly path?: Record<string, string>;
}

/** An event carrying `parts`, as API Gateway would pass it to a handler. */
export function apiEvent(parts: ApiEventParts = {}): APIGatewayProxyEvent {
  const body =
    parts.body === undefined
      ? null
      : typeof parts.body === 'string'
        ? parts.body
        : JSON.stringify(parts.body);
  return {
    body,
    multiValueQueryStringParameters: parts.query ?? null,
    pathParameters: parts.path ?? null,
  } as APIGatewayProxyEvent;
}
