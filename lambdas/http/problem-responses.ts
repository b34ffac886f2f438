import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '#adapters/observability';
import { HeraldError } from '#domain/errors';
import { toProblem } from './problem';

/**
 * Maps every thrown error to an RFC 9457 problem, once, for all API handlers. Register it last, so its
 * `onError` runs first. Unexpected errors are logged with their stack and answered with a generic 500.
 */
export function problemResponses(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      if (!(error instanceof HeraldError)) logger.error('Unhandled error', { error });
      request.response = toProblem(error, request.event.requestContext?.requestId ?? 'unknown');
    },
  };
}
