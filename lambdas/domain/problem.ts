/**
 * RFC 9457 problem details: the one rendering of every error the API answers with.
 */
import { GATEWAY_PROBLEMS, PROBLEM_TYPE_BASE } from '../../lib/shapes';
import { HeraldError, type InvalidParam, ValidationError } from './errors';

/** Media type of problem answers. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The JSON body of a problem answer. */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The request id, so a caller can quote it to support. */
  readonly instance: string;
  readonly invalid_params?: readonly InvalidParam[];
}

/** A problem answer ready for API Gateway. */
export interface ProblemResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Renders an error. A {@link HeraldError} shows its status, headers, title and message (written for
 * callers); a `ValidationError` adds `invalid_params`. Anything else is a 500 whose body says nothing
 * about the cause: internal messages and stacks belong in the logs, not in answers.
 */
export function toProblem(error: unknown, requestId: string): ProblemResponse {
  if (error instanceof HeraldError) {
    const body: ProblemBody = {
      type: PROBLEM_TYPE_BASE + error.slug,
      title: error.title,
      status: error.status,
      detail: error.message,
      instance: requestId,
      ...(error instanceof ValidationError ? { invalid_params: error.params } : {}),
    };
    return {
      statusCode: error.status,
      headers: { ...error.headers, 'Content-Type': PROBLEM_CONTENT_TYPE },
      body: JSON.stringify(body),
    };
  }
  const internal = GATEWAY_PROBLEMS.DEFAULT_5XX;
  const body: ProblemBody = {
    type: PROBLEM_TYPE_BASE + internal.slug,
    title: internal.title,
    status: internal.status,
    detail: internal.detail,
    instance: requestId,
  };
  return {
    statusCode: internal.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
    body: JSON.stringify(body),
  };
}
