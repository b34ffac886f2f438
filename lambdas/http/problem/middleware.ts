import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { HeraldError } from '#domain/errors';
import { toProblem } from './render';

/** Where unexpected errors are logged (the function's Powertools logger). */
export interface ErrorLog {
  error(message: string, details: { error: unknown }): void;
  warn(message: string, details: { error: unknown }): void;
}

/**
 * Maps every thrown error to an RFC 9457 problem, once, for all API handlers. Register it last, so its
 * `onError` runs first. Unexpected errors are logged with their stack and answered with a generic 500;
 * an answered error's `cause` (a failure that did not change the answer, such as a busy publish's
 * failed lease end) is logged as a warning, never shown to the caller.
 */
export function problemResponses(log: ErrorLog): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      if (!(error instanceof HeraldError)) log.error('Unhandled error', { error });
      else if (error.cause !== undefined)
        log.warn(`${error.name} answered despite a failure`, { error: error.cause });
      request.response = toProblem(error, request.event.requestContext?.requestId ?? 'unknown');
    },
  };
}
