import * as apigw from 'aws-cdk-lib/aws-apigateway';
import {
  GATEWAY_PROBLEMS,
  type GatewayProblem,
  METHOD_NOT_ALLOWED_PROBLEM,
  NOT_FOUND_PROBLEM,
  PROBLEM_CONTENT_TYPE,
} from '#http/problem/problem-types';
import { problemBody } from '#http/problem/render';

/** Response header values in API Gateway mappings are literals only when single-quoted. */
export function quoted(value: string): string {
  if (value.includes("'")) throw new Error(`A mapped header value cannot contain a quote: ${value}`);
  return `'${value}'`;
}

/**
 * The problem+json body as a mapping template, in the handlers' layout (`lambdas/http/problem/render.ts`):
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

/** A mock integration and its method options; the method needs no authorization, runs no function. */
export interface ProblemMock {
  readonly integration: apigw.MockIntegration;
  readonly options: apigw.MethodOptions;
}

/**
 * A mock integration answering `problem` with literal extra headers. It has a single integration
 * response without selection pattern, so whatever the mock returns maps to the problem's status.
 */
function problemMock(problem: GatewayProblem, headers: Readonly<Record<string, string>> = {}): ProblemMock {
  const names = ['Content-Type', ...Object.keys(headers)].map((name) => `method.response.header.${name}`);
  const values = { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers };
  return {
    integration: new apigw.MockIntegration({
      requestTemplates: { 'application/json': `{"statusCode": ${problem.status}}` },
      integrationResponses: [
        {
          statusCode: String(problem.status),
          responseParameters: Object.fromEntries(
            Object.entries(values).map(([name, value]) => [`method.response.header.${name}`, quoted(value)]),
          ),
          responseTemplates: templatesFor(problemTemplate(problem)),
        },
      ],
    }),
    options: {
      methodResponses: [
        {
          statusCode: String(problem.status),
          responseParameters: Object.fromEntries(names.map((name) => [name, true])),
        },
      ],
    },
  };
}

/** A mock answering 405 with `Allow`, for the methods a known resource does not serve. */
export function methodNotAllowed(allowed: readonly string[]): ProblemMock {
  return problemMock(METHOD_NOT_ALLOWED_PROBLEM, { Allow: allowed.join(', ') });
}

/**
 * A mock answering the 404 problem, for the root proxy resource and resources without routes: without
 * it API Gateway would answer unknown paths with MISSING_AUTHENTICATION_TOKEN, the type it also uses
 * for unsigned requests to IAM routes (a 403 here).
 */
export function routeNotFound(): ProblemMock {
  return problemMock(NOT_FOUND_PROBLEM);
}
