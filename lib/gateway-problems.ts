import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { PROBLEM_CONTENT_TYPE, problemBody } from '#http/problem';
import { GATEWAY_PROBLEMS, type GatewayProblem, METHOD_NOT_ALLOWED_PROBLEM } from '#http/problem-types';

/** Response header values in API Gateway mappings are literals only when single-quoted. */
export function quoted(value: string): string {
  if (value.includes("'")) throw new Error(`A mapped header value cannot contain a quote: ${value}`);
  return `'${value}'`;
}

/**
 * The problem+json body as a mapping template, in the handlers' layout (`lambdas/http/problem.ts`):
 * `instance` is the request id, filled in by API Gateway. Title and detail must not contain `$` or
 * `#`, which mapping templates (VTL) would interpret.
 */
export function problemTemplate(problem: GatewayProblem): string {
  for (const text of [problem.title, problem.detail]) {
    if (/[$#]/.test(text)) throw new Error(`A gateway problem text cannot contain $ or #: ${text}`);
  }
  return JSON.stringify(problemBody(problem, '$context.requestId'));
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
  for (const [type, problem] of Object.entries(GATEWAY_PROBLEMS as Record<string, GatewayProblem>)) {
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
  const problem = METHOD_NOT_ALLOWED_PROBLEM;
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
