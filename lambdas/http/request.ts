/**
 * Reading an API Gateway request: the caller's organization, the API's base URL, path parameters, and a
 * strict JSON body or query (unknown fields answer 400). The `<resource>-request.ts` files build on these.
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

/**
 * The query parameters of a request, each at most once and only the `allowed` ones.
 *
 * @throws ValidationError naming the first unknown or repeated parameter
 */
export function queryParams(event: APIGatewayProxyEvent, allowed: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, values = []] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    if (!allowed.includes(name))
      throw new ValidationError(name, `unknown parameter; allowed: ${allowed.join(', ')}`);
    const [value, ...rest] = values;
    if (value === undefined || rest.length > 0) throw new ValidationError(name, 'must be given once');
    params[name] = value;
  }
  return params;
}

/**
 * Like {@link jsonBody}, but an absent body reads as `{}` (routes whose fields are all optional).
 *
 * @throws ValidationError as {@link jsonBody}
 */
export function optionalJsonBody(
  event: APIGatewayProxyEvent,
  allowed: readonly string[],
): Record<string, unknown> {
  return event.body ? jsonBody(event, allowed) : {};
}
