/**
 * The RFC 9457 problem answers in the OpenAPI document: their schemas and every problem response the
 * routes refer to, each pinned to its status and problem type (rendered by `lambdas/http/problem/`).
 */
import {
  ERROR_PROBLEMS,
  GATEWAY_PROBLEMS,
  NOT_FOUND_PROBLEM as NO_ROUTE,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_TYPE_BASE,
} from '#http/problem/problem-types';
import type { JsonSchema } from '#http/schema';
import { array, closed, int, open, optional, ref, text } from '#http/schema';
import type { HeaderObject, ResponseObject } from './objects';

/** The headers problem answers carry, merged into `components.headers`. */
export const PROBLEM_HEADERS: Readonly<Record<string, HeaderObject>> = {
  'WWW-Authenticate': {
    description: 'The scheme.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer' },
  },
  'Retry-After': {
    description: 'On `rate-limited`: whole seconds until the limit lets the request through.',
    required: false,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

const regexpEscape = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One invalid field or parameter of a 400 or 422. */
export const INVALID_PARAM = closed({
  name: text('The parameter.'),
  reason: text('What is wrong and what is allowed.'),
});
/** The body of every problem answer. */
export const PROBLEM = open(
  {
    type: text('`https://herald.dev/problems/<slug>`.', {
      format: 'uri',
      pattern: `^${regexpEscape(PROBLEM_TYPE_BASE)}[a-z0-9-]+$`,
    }),
    title: text('Summary of the problem type; the same for every occurrence.'),
    status: int('The HTTP status.', 400, { maximum: 599 }),
    detail: text('What went wrong in this request; 5xx answers never reveal the cause.'),
    instance: text('The request id: quote it when asking for support.'),
    invalid_params: optional(array(ref('InvalidParam', INVALID_PARAM), { minItems: 1 })),
  },
  'RFC 9457 problem details; extension members may be added.',
);
/** A problem that names the fields at fault. */
export const VALIDATION_PROBLEM = {
  type: 'object',
  allOf: [ref('Problem', PROBLEM)],
  required: ['invalid_params'],
  properties: { invalid_params: { type: 'array', minItems: 1 } },
};

/** The problem schemas, merged into `components.schemas`. */
export const PROBLEM_SCHEMAS = {
  InvalidParam: INVALID_PARAM,
  Problem: PROBLEM,
  ValidationProblem: VALIDATION_PROBLEM,
};

/** A problem answer whose body must carry exactly this status and problem type. */
function problem(
  status: number,
  slug: string | readonly string[],
  description: string,
  header?: string,
): ResponseObject {
  const schema: JsonSchema = {
    type: 'object',
    allOf: [
      status === 400 || status === 422
        ? ref('ValidationProblem', VALIDATION_PROBLEM)
        : ref('Problem', PROBLEM),
    ],
    properties: {
      type:
        typeof slug === 'string'
          ? { const: PROBLEM_TYPE_BASE + slug }
          : { enum: slug.map((one) => PROBLEM_TYPE_BASE + one) },
      status: { const: status },
    },
  };
  const headers =
    header === undefined ? {} : { headers: { [header]: { $ref: `#/components/headers/${header}` } } };
  return { description, ...headers, content: { [PROBLEM_CONTENT_TYPE]: { schema } } };
}

const { UNAUTHORIZED: AUTH, THROTTLED: SLOW, QUOTA_EXCEEDED: QUOTA, DEFAULT_5XX } = GATEWAY_PROBLEMS;
const LIMITED = ERROR_PROBLEMS['rate-limited'];

/** `components.responses`: every problem the API answers with. */
export const RESPONSES: Readonly<Record<string, ResponseObject>> = {
  BadRequest: problem(400, 'invalid-parameter', 'Invalid input; `invalid_params` says which and why.'),
  Unauthorized: problem(AUTH.status, AUTH.slug, 'The API key is missing or unknown.', 'WWW-Authenticate'),
  NotFound: problem(404, 'not-found', "No such resource in the organization (another's looks the same)."),
  Conflict: problem(409, 'conflict', 'The state of the resource does not allow the request.'),
  Unprocessable: problem(422, 'unprocessable', 'A field names something that does not exist.'),
  Forbidden: problem(403, 'forbidden', 'These credentials may not call this route.'),
  SignatureProblem: problem(
    403,
    ['signature-required', 'invalid-signature', 'forbidden'],
    'An IAM route: the request is unsigned or carries an API key (`signature-required`), its SigV4 signature ' +
      'or credentials are wrong (`invalid-signature`), or the IAM policy denies it (`forbidden`).',
  ),
  TooManyRequests: problem(
    SLOW.status,
    [SLOW.slug, QUOTA.slug],
    "The API's or the organization's request rate (`too-many-requests`, retry later) or the " +
      "organization's daily quota (`quota-exceeded`, renews at 00:00 UTC) was exceeded.",
  ),
  RateLimited: problem(
    LIMITED.status,
    [LIMITED.slug, SLOW.slug, QUOTA.slug],
    'A limit of the route itself was reached (`rate-limited`: send it again after `Retry-After` seconds), ' +
      "or the API's or the organization's request rate or daily quota (see `TooManyRequests`).",
    'Retry-After',
  ),
  InternalError: problem(DEFAULT_5XX.status, DEFAULT_5XX.slug, 'Internal error; the cause is not revealed.'),
};

/**
 * API Gateway's answer to a path no route has. Not in `components.responses`: no operation refers to it
 * (the document's description states it), and an unreferenced component is a lint warning.
 */
export const ROUTE_NOT_FOUND: ResponseObject = problem(
  NO_ROUTE.status,
  NO_ROUTE.slug,
  'No route has this path.',
);

/** The answer to a known path with a method it does not serve; outside the components like {@link ROUTE_NOT_FOUND}. */
export const METHOD_NOT_ALLOWED: ResponseObject = {
  ...problem(405, 'method-not-allowed', 'The path has no such method.'),
  headers: {
    Allow: {
      description: 'The methods the path serves.',
      required: true,
      schema: { type: 'string', pattern: '^[A-Z]' },
    },
  },
};
