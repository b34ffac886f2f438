import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  BusyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '#domain/errors';
import { problemResponses } from '#http/problem/middleware';
import { toProblem } from '#http/problem/render';

const contentType = { 'Content-Type': 'application/problem+json' };

describe('toProblem', () => {
  it('renders a ValidationError with invalid_params', () => {
    const problem = toProblem(new ValidationError('per_page', 'must be an integer from 1 to 100'), 'req-1');
    expect(problem.statusCode).toBe(400);
    expect(problem.headers).toEqual(contentType);
    expect(problem.body).toBe(
      JSON.stringify({
        type: 'https://herald.dev/problems/invalid-parameter',
        title: 'Invalid parameter',
        status: 400,
        detail: 'per_page: must be an integer from 1 to 100',
        instance: 'req-1',
        invalid_params: [{ name: 'per_page', reason: 'must be an integer from 1 to 100' }],
      }),
    );
  });

  it('keeps the extra headers of an error', () => {
    expect(toProblem(new UnauthorizedError(), 'r').headers).toEqual({
      'WWW-Authenticate': 'Bearer',
      ...contentType,
    });
  });

  it.each([
    [new NotFoundError('No event 1.'), 404, 'not-found'],
    [new ConflictError('Event 1 exists with other content.'), 409, 'conflict'],
    [new ForbiddenError('Only a portal session key signs itself out.'), 403, 'forbidden'],
  ])('renders %s without invalid_params', (error, status, slug) => {
    const titles: Record<string, string> = {
      'not-found': 'Not found',
      conflict: 'Conflict',
      forbidden: 'Forbidden',
    };
    const problem = toProblem(error, 'req-2');
    expect(problem.statusCode).toBe(status);
    const body = JSON.parse(problem.body) as Record<string, unknown>;
    expect(body).toEqual({
      type: `https://herald.dev/problems/${slug}`,
      title: titles[slug],
      status,
      detail: error.message,
      instance: 'req-2',
    });
  });

  it.each([
    new Error('ConditionalCheckFailed on table prod-events at /var/task/index.js:1'),
    new TypeError("Cannot read properties of undefined (reading 'secret')"),
    'a thrown string',
    undefined,
  ])('renders anything else as a 500 that reveals nothing: %s', (error) => {
    const problem = toProblem(error, 'req-3');
    expect(problem.statusCode).toBe(500);
    expect(problem.headers).toEqual(contentType);
    expect(JSON.parse(problem.body)).toEqual({
      type: 'https://herald.dev/problems/internal-error',
      title: 'Internal error',
      status: 500,
      detail: 'The request could not be completed.',
      instance: 'req-3',
    });
    expect(problem.body).not.toMatch(/table|secret|thrown|index\.js/);
  });
});

describe('problemResponses', () => {
  const handle = async (error: Error) => {
    const logged: Array<[string, string, unknown]> = [];
    const log = {
      error: (message: string, details: { error: unknown }) => logged.push(['error', message, details.error]),
      warn: (message: string, details: { error: unknown }) => logged.push(['warn', message, details.error]),
    };
    const request = { error, event: { requestContext: { requestId: 'req-1' } } } as unknown as Request<
      APIGatewayProxyEvent,
      APIGatewayProxyResult
    >;
    await problemResponses(log).onError?.(request);
    return { logged, response: request.response };
  };

  it('logs the cause of an answered error as a warning, and answers without it', async () => {
    const throttled = new Error('ProvisionedThroughputExceededException');
    const { logged, response } = await handle(
      new BusyError('account: busy; send it again.', { cause: throttled }),
    );
    expect(logged).toEqual([['warn', 'BusyError answered despite a failure', throttled]]);
    expect(response?.statusCode).toBe(503);
    expect(response?.body).not.toContain('Provisioned');
  });

  it('logs nothing for an answered error without a cause, and unexpected errors as errors', async () => {
    expect((await handle(new NotFoundError('No event x.'))).logged).toEqual([]);
    const crash = new Error('boom');
    const { logged, response } = await handle(crash);
    expect(logged).toEqual([['error', 'Unhandled error', crash]]);
    expect(response?.statusCode).toBe(500);
  });
});
