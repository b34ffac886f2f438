// lambdas/http: HTTP presentation (request parsing, views, Link, OpenAPI, problem+json); imports domain/ and config/, never adapters/ or handlers/.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { UnauthorizedError, ValidationError } from '#domain/errors';

/**
 * The organization the authorizer resolved. API Gateway never calls a guarded route without it; the
 * check is defence in depth against a route wired without the authorizer.
 */
export function orgIdOf(event: APIGatewayProxyEvent): string {
  const orgId = event.requestContext.authorizer?.orgId;
  if (typeof orgId !== 'string' || orgId === '') throw new UnauthorizedError();
  return orgId;
}

/**
 * The API's public base URL: the configured one (custom domain, local runtime), or the execute-api URL
 * with its stage, so `_links` are right without configuration.
 */
export function baseUrlOf(event: APIGatewayProxyEvent, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const { domainName, stage } = event.requestContext;
  return `https://${domainName}/${stage}`;
}

/** A required path parameter. */
export function pathParam(event: APIGatewayProxyEvent, name: string): string {
  const value = event.pathParameters?.[name];
  if (value === undefined || value === '') throw new ValidationError(name, 'is required in the path');
  return value;
}

/** A JSON response. */
export function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * The JSON object body of a request, with only the `allowed` fields.
 *
 * @throws ValidationError naming `body` when it is not a JSON object, or the first unknown field
 */
export function jsonBody(event: APIGatewayProxyEvent, allowed: readonly string[]): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = event.body ? JSON.parse(event.body) : undefined;
  } catch {
    throw new ValidationError('body', 'must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  const unknown = Object.keys(parsed).find((name) => !allowed.includes(name));
  if (unknown !== undefined) {
    throw new ValidationError(unknown, `unknown field; allowed: ${allowed.join(', ')}`);
  }
  return parsed as Record<string, unknown>;
}

/** An empty answer (204). */
export function noContent(): APIGatewayProxyResult {
  return { statusCode: 204, headers: { 'Cache-Control': 'no-store' }, body: '' };
}
