import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_PROBLEMS, type GatewayProblem, PROBLEM_TYPE_BASE } from './shapes';

/** Media type of every error body (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Gateway answers the local runtime (scripts/local/api-gateway.ts) already gives and the shapes do not
 * define yet, with the same texts, so AWS and the emulator agree. An entry in `GATEWAY_PROBLEMS` wins.
 */
const FALLBACK_PROBLEMS = {
  ACCESS_DENIED: {
    status: 403,
    slug: 'forbidden',
    title: 'Forbidden',
    detail: 'This API key may not call this route.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    slug: 'method-not-allowed',
    title: 'Method not allowed',
    detail: 'This route does not support the request method; the Allow header lists the supported ones.',
  },
} as const satisfies Record<string, GatewayProblem>;

/** Every gateway problem by key: the shapes' entries over the fallbacks. */
const PROBLEMS: Readonly<Record<string, GatewayProblem>> = { ...FALLBACK_PROBLEMS, ...GATEWAY_PROBLEMS };

/** Not an API Gateway response type: the mock integration of {@link methodNotAllowed} renders it. */
const METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED';

/** Response header values in API Gateway mappings are literals only when single-quoted. */
export function quoted(value: string): string {
  if (value.includes("'")) throw new Error(`A mapped header value cannot contain a quote: ${value}`);
  return `'${value}'`;
}

/**
 * The problem+json body as a mapping template, in the handlers' layout (`lambdas/domain/problem.ts`):
 * `instance` is the request id, filled in by API Gateway. Title and detail must not contain `$` or
 * `#`, which mapping templates (VTL) would interpret.
 */
export function problemTemplate(problem: GatewayProblem): string {
  for (const text of [problem.title, problem.detail]) {
    if (/[$#]/.test(text)) throw new Error(`A gateway problem text cannot contain $ or #: ${text}`);
  }
  return JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}${problem.slug}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance: '$context.requestId',
  });
}

/**
 * The same template under both keys: API Gateway picks a template by the client's Accept header, and a
 * client asking for problem+json must not get an empty body.
 */
function templatesFor(body: string): Record<string, string> {
  return { 'application/json': body, [PROBLEM_CONTENT_TYPE]: body };
}

/** Turns every gateway problem into a gateway response of the same type. */
export function addGatewayProblems(api: apigw.RestApi): void {
  for (const [type, problem] of Object.entries(PROBLEMS)) {
    if (type === METHOD_NOT_ALLOWED) continue;
    const headers: Record<string, string> = { 'Content-Type': quoted(PROBLEM_CONTENT_TYPE) };
    for (const [name, value] of Object.entries(problem.headers ?? {})) headers[name] = quoted(value);
    api.addGatewayResponse(type, {
      type: apigw.ResponseType.of(type),
      statusCode: String(problem.status),
      responseHeaders: headers,
      templates: templatesFor(problemTemplate(problem)),
    });
  }
}

/**
 * A mock integration answering 405 with `Allow`, for the methods a known resource does not serve. It
 * has a single integration response without selection pattern, so whatever the mock returns maps to
 * 405.
 */
export function methodNotAllowed(allowed: readonly string[]): {
  integration: apigw.MockIntegration;
  options: apigw.MethodOptions;
} {
  const allow = allowed.join(', ');
  const problem = PROBLEMS[METHOD_NOT_ALLOWED] ?? FALLBACK_PROBLEMS.METHOD_NOT_ALLOWED;
  return {
    integration: new apigw.MockIntegration({
      requestTemplates: { 'application/json': '{"statusCode": 405}' },
      integrationResponses: [
        {
          statusCode: String(problem.status),
          responseParameters: {
            'method.response.header.Allow': quoted(allow),
            'method.response.header.Content-Type': quoted(PROBLEM_CONTENT_TYPE),
          },
          responseTemplates: templatesFor(problemTemplate(problem)),
        },
      ],
    }),
    options: {
      methodResponses: [
        {
          statusCode: String(problem.status),
          responseParameters: {
            'method.response.header.Allow': true,
            'method.response.header.Content-Type': true,
          },
        },
      ],
    },
  };
}
