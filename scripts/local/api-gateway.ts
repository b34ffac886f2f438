/**
 * A `node:http` emulation of Herald's API Gateway REST API: Lambda proxy integration (v1 events), a
 * TOKEN authorizer with a per-token decision cache, AWS IAM (SigV4) authorization against the local
 * operator credentials, and the gateway's own problem+json answers.
 *
 * Routes come from `API_ROUTES` and gateway answers from `GATEWAY_PROBLEMS`, the shapes the CDK stack
 * uses, so a client sees the same statuses, headers and bodies locally as in AWS. Route matching and the
 * proxy event itself live in `api-gateway-event.ts`; this file is the server, authorizer and responses.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
} from 'aws-lambda';
import type { FunctionKey } from '#config/functions';
import { LAMBDA_RESPONSE_MAX_BYTES, type OrganizationUsage } from '#config/limits';
import {
  API_ROUTES,
  AUTHORIZATION_HEADER,
  AUTHORIZER_CACHE_TTL_SECONDS,
  BEARER_PATTERN,
  type RouteShape,
} from '#config/routes';
import {
  GATEWAY_PROBLEMS,
  type GatewayProblem,
  METHOD_NOT_ALLOWED_PROBLEM,
  NOT_FOUND_PROBLEM,
} from '#http/problem/problem-types';
import { renderProblem } from '#http/problem/render';
import { headerValue, matchRoute, readBody, toMethodArn, toProxyEvent } from './api-gateway-event';
import { LOCAL_REGION } from './emulators';
import { type LocalCredentials, verifySigV4 } from './sigv4';
import { createUsageMeter } from './usage-meter';

/** A proxy-integration function (a Lambda handler with its context already bound). */
export type ApiHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/** A TOKEN authorizer function. */
export type TokenAuthorizerHandler = (
  event: APIGatewayTokenAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

/** Functions that serve routes (everything but the authorizer and the event-source functions). */
export type RouteFunctionKey = Exclude<
  FunctionKey,
  'authorizer' | 'forwarder' | 'consumer' | 'reconciler' | 'noticeSummary'
>;

/** The functions behind the API: the authorizer and the route functions by {@link FunctionKey}. */
export type ApiHandlers = { readonly authorizer?: TokenAuthorizerHandler } & {
  readonly [K in RouteFunctionKey]?: ApiHandler;
};

/** Options of {@link createApiGateway}. */
export interface ApiGatewayOptions {
  readonly handlers: ApiHandlers;
  /** Default `API_ROUTES`. */
  readonly routes?: readonly RouteShape[];
  /**
   * How long an authorizer decision is reused for the same token; default `AUTHORIZER_CACHE_TTL_SECONDS`
   * (60 s), 0 disables the cache.
   */
  readonly authorizerCacheTtlSeconds?: number | undefined;
  /** Stage name in request contexts and method ARNs; default `local`. */
  readonly stage?: string;
  /**
   * Each organization's throttle and quota, as the stack's usage plan (`npm start` passes the stack's
   * defaults, `ORGANIZATION_USAGE_DEFAULTS`); unmetered when absent, so tests can page quickly.
   */
  readonly organizationUsage?: OrganizationUsage | undefined;
  /**
   * The only AWS identity allowed on `iam` routes (the local operator); without it every `iam` route
   * answers 403. Signatures must be for service `execute-api` in `LOCAL_REGION`.
   */
  readonly operatorCredentials?: LocalCredentials;
}

/** A gateway that is not yet (or no longer) listening. */
export interface ApiGateway {
  /**
   * Starts listening on 127.0.0.1 (never another interface: the emulated gateway has no TLS and the
   * operator key it accepts is local); resolves with the base URL, e.g. `http://127.0.0.1:3000`. Port 0
   * picks a free one.
   */
  listen(port?: number): Promise<string>;
  /** Stops accepting requests and closes open connections. Idempotent. */
  close(): Promise<void>;
}

const BEARER = new RegExp(BEARER_PATTERN);

type CachedDecision = { readonly result: APIGatewayAuthorizerResult; readonly expiresAt: number };
type Decision = { readonly allowed: Record<string, string> } | { readonly problem: GatewayProblem };

/** Creates the gateway; call `listen()` to serve. */
export function createApiGateway(options: ApiGatewayOptions): ApiGateway {
  const routes = options.routes ?? API_ROUTES;
  const stage = options.stage ?? 'local';
  const ttlMs = (options.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS) * 1000;
  const decisions = new Map<string, CachedDecision>();
  const meter = options.organizationUsage ? createUsageMeter(options.organizationUsage) : undefined;

  const authorize = async (token: string | undefined, methodArn: string): Promise<Decision> => {
    // Like the stack's authorizer: a header that is missing or not `Bearer <key>` never reaches it.
    if (!token || !BEARER.test(token)) return { problem: GATEWAY_PROBLEMS.UNAUTHORIZED };
    const authorizer = options.handlers.authorizer;
    if (!authorizer) {
      console.error('[api-gateway] no authorizer function is registered');
      return { problem: GATEWAY_PROBLEMS.DEFAULT_5XX };
    }
    let result = decisions.get(token);
    if (!result || result.expiresAt <= Date.now()) {
      try {
        const answer = await authorizer({ type: 'TOKEN', authorizationToken: token, methodArn });
        result = { result: answer, expiresAt: Date.now() + ttlMs };
      } catch (error) {
        // Only this exact message means 401 to API Gateway; anything else is an authorizer failure.
        if (error instanceof Error && error.message === 'Unauthorized')
          return { problem: GATEWAY_PROBLEMS.UNAUTHORIZED };
        console.error('[api-gateway] authorizer failed', error);
        return { problem: GATEWAY_PROBLEMS.DEFAULT_5XX };
      }
      if (ttlMs > 0) decisions.set(token, result);
    }
    const { principalId, policyDocument, context } = result.result;
    const values = Object.entries(context ?? {}).filter(([, value]) => value !== undefined);
    const nested = values.some(([, value]) => typeof value === 'object' && value !== null);
    if (!principalId || !policyDocument || nested) {
      console.error('[api-gateway] malformed authorizer result', result.result);
      return { problem: GATEWAY_PROBLEMS.DEFAULT_5XX };
    }
    if (evaluatePolicy(policyDocument, methodArn) !== 'Allow') {
      return { problem: GATEWAY_PROBLEMS.ACCESS_DENIED };
    }
    // The usage plan: the authorizer names the key (API key source AUTHORIZER); without one API
    // Gateway answers 403, and an exhausted bucket or quota 429.
    if (meter) {
      const usageKey = result.result.usageIdentifierKey;
      if (!usageKey) return { problem: GATEWAY_PROBLEMS.ACCESS_DENIED };
      const verdict = meter.take(usageKey);
      if (verdict !== 'allowed') return { problem: GATEWAY_PROBLEMS[verdict] };
    }
    // API Gateway hands context values to the integration as strings.
    return {
      allowed: { principalId, ...Object.fromEntries(values.map(([key, value]) => [key, String(value)])) },
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const method = req.method ?? 'GET';
    const match = matchRoute(routes, path);
    // The stack's root proxy mock answers the same problem for every path no route has.
    if (!match) return sendProblem(res, NOT_FOUND_PROBLEM, requestId);
    const route = match.routes.find((candidate) => candidate.method === method);
    if (!route) {
      const allow = match.routes.map((candidate) => candidate.method).join(', ');
      // The stack's 405 mock answers with the same problem and an `Allow` header.
      return sendProblem(res, METHOD_NOT_ALLOWED_PROBLEM, requestId, { Allow: allow });
    }
    const body = await readBody(req);
    let authorizer: Record<string, string> | undefined;
    let caller: string | undefined;
    if (route.auth === 'api-key') {
      const arn = toMethodArn(stage, method, path);
      const decision = await authorize(headerValue(req, AUTHORIZATION_HEADER), arn);
      if ('problem' in decision) return sendProblem(res, decision.problem, requestId);
      authorizer = decision.allowed;
    } else if (route.auth === 'iam') {
      const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split(/\?(.*)/s);
      const signed = { method, rawPath, rawQuery, rawHeaders: req.rawHeaders, body };
      const verdict = options.operatorCredentials
        ? verifySigV4(signed, options.operatorCredentials, LOCAL_REGION)
        : ({ fault: 'EXPIRED_TOKEN' } as const);
      if ('fault' in verdict) return sendProblem(res, GATEWAY_PROBLEMS[verdict.fault], requestId);
      caller = verdict.accessKeyId;
    }
    const event = toProxyEvent(
      { req, url, path, body, requestId, stage },
      route,
      match.pathParameters,
      authorizer,
      caller,
    );
    const handler = options.handlers[route.fn as RouteFunctionKey];
    let result: APIGatewayProxyResult;
    try {
      if (!handler) throw new Error(`No handler registered for function ${route.fn}`);
      result = await handler(event);
      if (!result || !Number.isInteger(result.statusCode)) throw new Error('Malformed Lambda proxy response');
      // Lambda refuses a response over its limit, as the JSON its runtime sends, and the invocation fails.
      const size = Buffer.byteLength(JSON.stringify(result), 'utf8');
      if (size > LAMBDA_RESPONSE_MAX_BYTES) {
        throw new Error(`Response payload of ${size} bytes exceeds Lambda's ${LAMBDA_RESPONSE_MAX_BYTES}`);
      }
    } catch (error) {
      console.error(`[api-gateway] ${route.fn} failed (request ${requestId})`, error);
      return sendProblem(res, GATEWAY_PROBLEMS.DEFAULT_5XX, requestId);
    }
    sendResult(res, result, requestId);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('[api-gateway] request failed', error);
      if (!res.headersSent) sendProblem(res, GATEWAY_PROBLEMS.DEFAULT_5XX, 'unknown');
      else res.destroy();
    });
  });
  let closing: Promise<void> | undefined;

  return {
    listen: (port = 0) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
        });
      }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function sendProblem(
  res: ServerResponse,
  problem: GatewayProblem,
  requestId: string,
  extraHeaders: Record<string, string> = {},
): void {
  const answer = renderProblem(problem, requestId, { extraHeaders });
  res.writeHead(answer.statusCode, { 'x-amzn-RequestId': requestId, ...answer.headers });
  res.end(answer.body);
}

function sendResult(res: ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  const headers = new Map<string, { name: string; values: string[] }>();
  const add = (name: string, values: readonly (string | number | boolean)[]): void => {
    const entry = headers.get(name.toLowerCase()) ?? { name, values: [] };
    entry.values.push(...values.map(String));
    headers.set(name.toLowerCase(), entry);
  };
  for (const [name, value] of Object.entries(result.headers ?? {})) add(name, [value]);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) add(name, values);
  // API Gateway's defaults when the function sets none.
  if (!headers.has('content-type')) add('Content-Type', ['application/json']);
  add('x-amzn-RequestId', [requestId]);
  res.writeHead(
    result.statusCode,
    Object.fromEntries(
      [...headers.values()].map(({ name, values }) => [name, values.length === 1 ? values[0] : values]),
    ),
  );
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
}

/** IAM-style evaluation of the authorizer's policy for one method ARN: an explicit Deny wins. */
function evaluatePolicy(
  policy: APIGatewayAuthorizerResult['policyDocument'],
  methodArn: string,
): 'Allow' | 'Deny' {
  const list = <T>(value: T | readonly T[] | undefined): readonly T[] =>
    value === undefined ? [] : Array.isArray(value) ? value : [value as T];
  const glob = (pattern: string): RegExp =>
    new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
  let allowed = false;
  for (const statement of list(policy.Statement)) {
    const actions = 'Action' in statement ? list<string>(statement.Action) : [];
    const resources = 'Resource' in statement ? list<string>(statement.Resource) : [];
    const applies =
      actions.some((action) => glob(action).test('execute-api:Invoke')) &&
      resources.some((resource) => glob(resource).test(methodArn));
    if (applies && statement.Effect === 'Deny') return 'Deny';
    if (applies && statement.Effect === 'Allow') allowed = true;
  }
  return allowed ? 'Allow' : 'Deny';
}
