import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '#domain/errors';
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
