/**
 * The request side of the local API Gateway emulation: which `API_ROUTES` resource a path hits, and the
 * v1 `APIGatewayProxyEvent` (plus the authorizer's method ARN) that API Gateway would build for it.
 *
 * Kept apart from the server in `api-gateway.ts` so the event shape, which handlers depend on field by
 * field, can be read and changed without wading through the authorizer and response plumbing.
 */
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteShape } from '#config/routes';
import { LOCAL_REGION } from './emulators';

// Fixed stand-ins: nothing local has a real account or API id, but handlers and policies see ARNs and
// request contexts built from them, so they must be stable and well formed.
const ACCOUNT_ID = '000000000000';
const API_ID = 'local';
const OPERATOR_USER_ID = 'AIDALOCALOPERATOR';

/** The methods registered on one resource, and the path parameters the request path gave it. */
export interface RouteMatch {
  /** Every route of the matched resource; the caller picks by method so it can answer 405 with `Allow`. */
  readonly routes: readonly RouteShape[];
  /** Decoded `{param}` values, or `null` when the resource has none (as API Gateway sends it). */
  readonly pathParameters: Record<string, string> | null;
}

/** What {@link toProxyEvent} needs from one incoming request, gathered once by the server. */
export interface GatewayRequest {
  readonly req: IncomingMessage;
  readonly url: URL;
  /** The request path without a trailing slash (API Gateway ignores one). */
  readonly path: string;
  /** The body as read by {@link readBody}. */
  readonly body: string | null;
  readonly requestId: string;
  readonly stage: string;
}

/**
 * Finds the resource `path` belongs to.
 *
 * @param routes - The API's routes; several may share a resource path with different methods.
 * @param path - The request path, starting with `/` and without a trailing slash.
 * @returns All routes of the best-matching resource, or `undefined` when no resource fits (answered with
 *   `NOT_FOUND_PROBLEM`, as the stack's root proxy mock does). Literal segments beat `{param}` ones, as in API Gateway.
 */
export function matchRoute(routes: readonly RouteShape[], path: string): RouteMatch | undefined {
  const segments = path.split('/').slice(1);
  let best: { match: RouteMatch; literals: number; resource: string } | undefined;
  for (const route of routes) {
    const template = route.path.split('/').slice(1);
    if (template.length !== segments.length) continue;
    const parameters: Record<string, string> = {};
    let literals = 0;
    const fits = template.every((part, index) => {
      const segment = segments[index] ?? '';
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part === segment && ++literals > 0;
      parameters[name] = safeDecode(segment);
      return segment !== '';
    });
    if (!fits) continue;
    if (best?.resource === route.path) {
      best.match = { ...best.match, routes: [...best.match.routes, route] };
    } else if (!best || literals > best.literals) {
      const pathParameters = Object.keys(parameters).length > 0 ? parameters : null;
      best = { match: { routes: [route], pathParameters }, literals, resource: route.path };
    }
  }
  return best?.match;
}

/**
 * The method ARN API Gateway passes to a TOKEN authorizer, which its policy's `Resource` is matched against.
 *
 * @param stage - The stage name.
 * @param method - The HTTP method of the request.
 * @param path - The request path (not the resource template), as API Gateway uses it.
 */
export function toMethodArn(stage: string, method: string, path: string): string {
  return `arn:aws:execute-api:${LOCAL_REGION}:${ACCOUNT_ID}:${API_ID}/${stage}/${method}${path}`;
}

/**
 * Builds the v1 proxy event API Gateway would send for this request.
 *
 * @param request - The request and what the server derived from it.
 * @param route - The route that serves it.
 * @param pathParameters - From {@link matchRoute}.
 * @param authorizer - The authorizer's `principalId` and context (already strings), or `undefined` for an
 *   unauthorized route.
 * @param accessKey - On an IAM route, the access key id of the verified SigV4 signature.
 */
export function toProxyEvent(
  request: GatewayRequest,
  route: RouteShape,
  pathParameters: Record<string, string> | null,
  authorizer: Record<string, string> | undefined,
  accessKey?: string,
): APIGatewayProxyEvent {
  const { req, url, path, stage, requestId } = request;
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  // rawHeaders keeps the client's spelling, which REST APIs pass through unchanged.
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
    const name = req.rawHeaders[index] as string;
    const value = req.rawHeaders[index + 1] as string;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    multiQuery[name] = [...(multiQuery[name] ?? []), value];
  }
  const hasQuery = Object.keys(query).length > 0;
  const now = new Date();
  const host = headerValue(req, 'host') ?? 'localhost';
  return {
    resource: route.path,
    path,
    httpMethod: route.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters,
    stageVariables: null,
    body: request.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      authorizer,
      domainName: host,
      domainPrefix: host.split('.')[0],
      extendedRequestId: requestId,
      httpMethod: route.method,
      identity: {
        // A caller without IAM or Cognito credentials leaves every other field null; an IAM caller is the
        // local operator, an IAM user of the stand-in account.
        accessKey: accessKey ?? null,
        accountId: accessKey ? ACCOUNT_ID : null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        user: accessKey ? OPERATOR_USER_ID : null,
        userArn: accessKey ? `arn:aws:iam::${ACCOUNT_ID}:user/herald-local-operator` : null,
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        userAgent: headerValue(req, 'user-agent') ?? null,
      },
      path: `/${stage}${path}`,
      protocol: `HTTP/${req.httpVersion}`,
      requestId,
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: route.path,
      resourcePath: route.path,
      stage,
    },
  };
}

/**
 * The first value of a request header, or `undefined` when it is missing or empty.
 *
 * @param name - Any casing; Node stores header names lower-cased.
 */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  // An empty value counts as absent, so an empty Authorization header is treated as no token at all.
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

/**
 * Reads the whole request body as UTF-8 text.
 *
 * @returns `null` for an empty body, which is what API Gateway puts in `event.body`.
 */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? null : Buffer.concat(chunks).toString('utf8');
}

// A malformed escape (e.g. `%E0%A4%A`) is passed through rather than failing the whole request.
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
