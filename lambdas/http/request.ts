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

/** The request body as JSON; an absent body is `{}`. Bodies are never logged: they may carry secrets. */
export function jsonBody(event: APIGatewayProxyEvent): unknown {
  if (!event.body) return {};
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('body', 'must be a JSON object');
  }
}
