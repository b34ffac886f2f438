/**
 * RFC 9457 problem details: the one renderer of every error answer. Handlers use `toProblem`, the
 * stack's gateway responses and the local API Gateway emulator use `problemBody`, so a problem looks the
 * same whoever answers.
 */
import {
  HeraldError,
  type InvalidParam,
  RateLimitedError,
  UnprocessableError,
  ValidationError,
} from '#domain/errors';
import type { PROBLEM } from '#http/openapi/problems';
import type { Static } from '#http/schema';
import {
  ERROR_PROBLEMS,
  GATEWAY_PROBLEMS,
  type GatewayProblem,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_TYPE_BASE,
} from './problem-types';

/** The JSON body of a problem answer. */
export type ProblemBody = Static<typeof PROBLEM>;

/** A problem answer ready for API Gateway (or the emulator's HTTP response). */
export interface ProblemResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The body of a problem of type `problem`; `detail` defaults to the type's own. */
export function problemBody(
  problem: GatewayProblem,
  instance: string,
  detail: string = problem.detail,
  invalidParams?: readonly InvalidParam[],
): ProblemBody {
  return {
    type: PROBLEM_TYPE_BASE + problem.slug,
    title: problem.title,
    status: problem.status,
    detail,
    instance,
    ...(invalidParams ? { invalid_params: invalidParams } : {}),
  };
}

/** A whole answer for `problem`, with its headers, any `extraHeaders` (e.g. `Allow`) and the media type. */
export function renderProblem(
  problem: GatewayProblem,
  instance: string,
  options: {
    detail?: string;
    invalidParams?: readonly InvalidParam[];
    extraHeaders?: Record<string, string>;
  } = {},
): ProblemResponse {
  return {
    statusCode: problem.status,
    headers: { ...problem.headers, ...options.extraHeaders, 'Content-Type': PROBLEM_CONTENT_TYPE },
    body: JSON.stringify(problemBody(problem, instance, options.detail, options.invalidParams)),
  };
}

/**
 * Renders an error. A {@link HeraldError} is answered with its kind's problem type and its message (written
 * for callers); a `ValidationError` adds `invalid_params`, a `RateLimitedError` its `Retry-After`.
 * Anything else is a 500 whose body says nothing about the cause: internal messages and stacks belong in
 * the logs, not in answers.
 */
export function toProblem(error: unknown, requestId: string): ProblemResponse {
  const body = errorProblem(error, requestId);
  const problem: GatewayProblem =
    error instanceof HeraldError ? ERROR_PROBLEMS[error.kind] : GATEWAY_PROBLEMS.DEFAULT_5XX;
  const retryAfter: Record<string, string> =
    error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
  return {
    statusCode: body.status,
    headers: { ...problem.headers, ...retryAfter, 'Content-Type': PROBLEM_CONTENT_TYPE },
    body: JSON.stringify(body),
  };
}

/**
 * The problem body of an error, as {@link toProblem} answers it: also for one entry of an answer that
 * holds several outcomes (a batch publish's refused entry).
 */
export function errorProblem(error: unknown, instance: string): ProblemBody {
  if (!(error instanceof HeraldError)) return problemBody(GATEWAY_PROBLEMS.DEFAULT_5XX, instance);
  const params =
    error instanceof ValidationError || error instanceof UnprocessableError ? error.params : undefined;
  return problemBody(ERROR_PROBLEMS[error.kind], instance, error.message, params);
}
