/**
 * Reading an API Gateway request: the caller's organization and key, the API's base URL and path
 * parameters. Bodies and queries are read by their schemas (`read-request.ts`); the
 * `<resource>-request.ts` files build on both.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
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
 * Whether the request's API key is a `manage` key (the authorizer's context says so). Anything else, a
 * missing scope included, reads as `read`: the narrower view.
 */
export function isManageKey(event: APIGatewayProxyEvent): boolean {
  return event.requestContext.authorizer?.scope === 'manage';
}

/** The id of the API key the authorizer resolved (see {@link orgIdOf}). */
export function keyIdOf(event: APIGatewayProxyEvent): string {
  const keyId = event.requestContext.authorizer?.keyId;
  if (typeof keyId !== 'string' || keyId === '') throw new UnauthorizedError();
  return keyId;
}

/**
 * The API key the request's `Authorization: Bearer <key>` header carries (the gateway let only that
 * spelling through), for a route that acts on the caller's own key.
 */
export function bearerKeyOf(event: APIGatewayProxyEvent): string {
  const header = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization');
  const value = header?.[1] ?? '';
  if (!value.startsWith('Bearer ')) throw new UnauthorizedError();
  return value.slice('Bearer '.length);
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
