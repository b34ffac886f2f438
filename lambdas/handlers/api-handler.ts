/**
 * The middy stack every API handler shares: the Lambda context in each log line, the event logged (when
 * POWERTOOLS_LOGGER_LOG_EVENT is set) without its credential headers, except for routes whose body may
 * carry a secret, and every thrown error answered once as RFC 9457 problem+json (registered last, so its
 * `onError` runs first).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger } from '#adapters/observability';
import { API_ROUTES } from '#config/routes';
import { loggableRequest } from '#http/logged-request';
import { problemResponses } from '#http/problem/middleware';

/** `METHOD /resource` of every route declared `secretBody` (`config/routes.ts`): never logged whole. */
const SECRET_BODIES = new Set(
  API_ROUTES.filter((route) => route.secretBody).map((route) => `${route.method} ${route.path}`),
);

/**
 * Wraps an API route's work in the shared middy stack. A route declared `secretBody` never has its event
 * logged; `logEvent: false` keeps every event of the function out of the logs (for a secret elsewhere
 * than the body, e.g. the session key that signs out).
 */
export function apiHandler(
  handle: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>,
  options: { readonly logEvent?: false } = {},
): MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(injectLambdaContext(logger, { logEvent: false }))
    .use({
      before: ({ event }) => {
        const secret = SECRET_BODIES.has(`${event.httpMethod} ${event.resource}`);
        if (options.logEvent !== false && !secret) logger.logEventIfEnabled(loggableRequest(event));
      },
    })
    .use(problemResponses(logger))
    .handler(handle);
}
