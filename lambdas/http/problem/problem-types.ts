/**
 * Every problem type the API answers with: those of API Gateway itself (before any function runs) and
 * those of Herald's typed errors. `render.ts` renders all of them; the stack and the local API Gateway
 * emulator take the gateway ones from here. Imports only the domain's error kinds.
 */
import type { ErrorKind } from '#domain/errors';

/** Media type of problem answers. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** A problem type: status, slug (last segment of its `type` URI), title, default detail and headers. */
export interface GatewayProblem {
  readonly status: number;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * API Gateway's own answers (REST API gateway responses), rendered as RFC 9457 problems. The stack turns
 * them into `GatewayResponse`s; the local runtime answers with the same status, headers and body.
 */
export const GATEWAY_PROBLEMS = {
  /** Missing `Authorization` header, or the authorizer rejected the key. */
  UNAUTHORIZED: {
    status: 401,
    slug: 'unauthorized',
    title: 'Unauthorized',
    detail: 'A valid API key is required: send "Authorization: Bearer <api key>".',
    headers: { 'WWW-Authenticate': 'Bearer' },
  },
  /**
   * An IAM route called with no `Authorization` header at all. REST APIs also use this type for a path
   * no resource matches, but the stack's root proxy mock answers those with {@link NOT_FOUND_PROBLEM}.
   */
  MISSING_AUTHENTICATION_TOKEN: {
    status: 403,
    slug: 'signature-required',
    title: 'Signature required',
    detail:
      'This route needs an AWS Signature Version 4 (service execute-api) from an identity allowed execute-api:Invoke on it; the request was not signed.',
  },
  /**
   * A Deny: the authorizer's policy for a `read` key on a `manage` route, or an IAM identity whose
   * policy does not allow `execute-api:Invoke` on the route.
   */
  ACCESS_DENIED: {
    status: 403,
    slug: 'forbidden',
    title: 'Forbidden',
    detail:
      'These credentials may not call this route: it needs an API key with the manage scope, or an AWS identity allowed to invoke it.',
  },
  /** An IAM route called with an `Authorization` header that is not SigV4 (an API key, say). */
  INCOMPLETE_SIGNATURE: {
    status: 403,
    slug: 'signature-required',
    title: 'Signature required',
    detail:
      'This route is authorized by AWS IAM: sign the request with AWS Signature Version 4 (service execute-api); API keys are not accepted here.',
  },
  /** A SigV4 signature that does not match the request or the caller's secret key. */
  INVALID_SIGNATURE: {
    status: 403,
    slug: 'invalid-signature',
    title: 'Invalid signature',
    detail:
      'The AWS Signature Version 4 of this request does not match: check the credentials, the region, the service (execute-api) and that the signed request was sent unchanged.',
  },
  /** SigV4 credentials that are unknown, or a signature whose date is too far from the gateway's clock. */
  EXPIRED_TOKEN: {
    status: 403,
    slug: 'invalid-signature',
    title: 'Invalid signature',
    detail: 'The AWS credentials are unknown or expired, or the request was signed more than 5 minutes ago.',
  },
  THROTTLED: {
    status: 429,
    slug: 'too-many-requests',
    title: 'Too many requests',
    detail:
      "The request rate limit of this API or of the organization's usage plan was exceeded; retry later.",
  },
  QUOTA_EXCEEDED: {
    status: 429,
    slug: 'quota-exceeded',
    title: 'Quota exceeded',
    detail: "The organization's daily request quota is used up; it renews at 00:00 UTC.",
  },
  DEFAULT_5XX: {
    status: 500,
    slug: 'internal-error',
    title: 'Internal error',
    detail: 'The request could not be completed.',
  },
} as const satisfies Record<string, GatewayProblem>;

/**
 * Not an API Gateway response type: the stack's mock integration answers methods a known route does not
 * serve with this problem and an `Allow` header, and the emulator answers the same.
 */
export const METHOD_NOT_ALLOWED_PROBLEM: GatewayProblem = {
  status: 405,
  slug: 'method-not-allowed',
  title: 'Method not allowed',
  detail: 'This route does not support the request method; the Allow header lists the supported ones.',
};

/**
 * Not an API Gateway response type: the stack's mock integration on the root proxy resource (and on
 * resources without methods) answers every path no route has with this problem, and so does the
 * emulator. Domain `not-found` errors share the type with their own detail.
 */
export const NOT_FOUND_PROBLEM: GatewayProblem = {
  status: 404,
  slug: 'not-found',
  title: 'Not found',
  detail: 'No such route. See /openapi.json for the routes of this API.',
};

/** Base of every problem `type` URI. */
export const PROBLEM_TYPE_BASE = 'https://herald.dev/problems/';

/** How each kind of domain error is answered; the error's message becomes the detail. */
export const ERROR_PROBLEMS: Readonly<Record<ErrorKind, GatewayProblem>> = {
  invalid: {
    status: 400,
    slug: 'invalid-parameter',
    title: 'Invalid parameter',
    detail: 'A parameter is invalid.',
  },
  unprocessable: {
    status: 422,
    slug: 'unprocessable',
    title: 'Unprocessable content',
    detail: 'A field refers to something that does not exist.',
  },
  unauthorized: GATEWAY_PROBLEMS.UNAUTHORIZED,
  forbidden: GATEWAY_PROBLEMS.ACCESS_DENIED,
  'not-found': NOT_FOUND_PROBLEM,
  conflict: {
    status: 409,
    slug: 'conflict',
    title: 'Conflict',
    detail: 'The request conflicts with the stored state.',
  },
  'rate-limited': {
    status: 429,
    slug: 'rate-limited',
    title: 'Rate limited',
    detail: 'Too many requests of this kind; send it again after Retry-After seconds.',
  },
  busy: {
    status: 503,
    slug: 'busy',
    title: 'Busy',
    detail: 'The request could not complete now and stored nothing; send it again.',
    headers: { 'Retry-After': '1' },
  },
};
