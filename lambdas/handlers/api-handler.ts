/**
 * The middy stack every API handler shares: the Lambda context in each log line, and every thrown error
 * answered once as RFC 9457 problem+json (registered last, so its `onError` runs first).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger } from '#adapters/observability';
import { problemResponses } from '#http/problem/middleware';

/**
 * Wraps an API route's work in the shared middy stack. `logEvent: false` keeps the event out of the logs
 * even when POWERTOOLS_LOGGER_LOG_EVENT is set, for routes whose body carries a secret.
 */
export function apiHandler(
  handle: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>,
  options: { readonly logEvent?: false } = {},
): MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(injectLambdaContext(logger, options))
    .use(problemResponses(logger))
    .handler(handle);
}
