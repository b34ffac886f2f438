/**
 * The API's routes: each `API_ROUTES` entry as a method with its authorization and its function's proxy
 * integration, and the mocks that answer what no route serves (405 with `Allow`, the 404 problem).
 */
import { Aws, Duration, Names, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct, IConstruct } from 'constructs';
import type { FunctionKey } from '#config/functions';
import {
  API_ROUTES,
  AUTHORIZATION_HEADER,
  AUTHORIZER_CACHE_TTL_SECONDS,
  BEARER_PATTERN,
  type RouteShape,
} from '#config/routes';
import { methodNotAllowed, type ProblemMock, routeNotFound } from './gateway-problems';

/** What the routes need of the API's properties. */
export interface ApiRouteProps {
  /** Functions by key; the API uses the ones `API_ROUTES` names. */
  readonly functions: Readonly<Record<FunctionKey, lambda.IFunction>>;
  readonly stageName: string;
  /** Origins allowed by CORS preflights. */
  readonly corsAllowOrigins?: readonly string[] | undefined;
}

const PUBLIC_METHOD_REASON =
  'Unauthenticated by design: the health check, the API description and the portal page and its sign-in ' +
  '(which checks a one-time link token itself) must be reachable without a key.';
const MOCK_METHOD_REASON =
  'Answers 405 or a CORS preflight from a mock integration: no function runs and no data is returned.';
const NOT_FOUND_REASON =
  'Answers the 404 problem for paths no route has from a mock integration: no function runs and no data ' +
  'is returned. It keeps unknown paths off MISSING_AUTHENTICATION_TOKEN, which is the unsigned-IAM 403.';
const AUTHORIZER_REASON =
  'Callers are machines holding per-organization API keys, checked by the Lambda TOKEN authorizer ' +
  '(cached per key); there are no end users for a Cognito user pool.';
const IAM_REASON =
  "Callers are the gateway's and the operators' own AWS identities, authorized by IAM (SigV4); " +
  'there are no end users for a Cognito user pool.';

/** Why a route has no Cognito authorizer; `none` routes also say why they have none at all. */
const AUTH_REASONS: Readonly<Record<RouteShape['auth'], { cognito: string; open?: string }>> = {
  none: { cognito: PUBLIC_METHOD_REASON, open: PUBLIC_METHOD_REASON },
  'api-key': { cognito: AUTHORIZER_REASON },
  iam: { cognito: IAM_REASON },
};

/**
 * Adds every route of `API_ROUTES` to `api`: its method, authorization and Lambda proxy integration,
 * one invoke permission per function for the deployed stage, a CORS preflight when origins are given,
 * and the 405 and 404 problem mocks for what no route serves.
 */
export function addApiRoutes(scope: Construct, api: apigw.RestApi, props: ApiRouteProps): void {
  const authorizer = new apigw.TokenAuthorizer(scope, 'Authorizer', {
    handler: props.functions.authorizer,
    identitySource: apigw.IdentitySource.header(AUTHORIZATION_HEADER),
    validationRegex: BEARER_PATTERN,
    resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
  });
  // Declared parameters are required. No route takes a body yet; a model added later is enforced.
  const validator = api.addRequestValidator('Request', {
    validateRequestParameters: true,
    validateRequestBody: true,
  });

  // One invoke permission per function, for this API's stage, not one per method: a permission a
  // method would bring CloudFormation's 500-resource stack limit within reach as routes are added. Its
  // source is the deployed stage only, so the console's test invocation (which skips the method's
  // authorization) cannot reach a function.
  const stageArn = api.arnForExecuteApi('*', '/*', props.stageName);
  for (const fn of new Set(API_ROUTES.map((route) => props.functions[route.fn]))) {
    fn.addPermission(`ApiInvoke${Names.uniqueId(api)}`, {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: stageArn,
    });
  }
  for (const path of new Set(API_ROUTES.map((route) => route.path))) {
    const routes = API_ROUTES.filter((route) => route.path === path);
    const resource = api.root.resourceForPath(path);
    for (const route of routes) {
      const method = resource.addMethod(route.method, stageInvoked(props.functions[route.fn]), {
        ...(route.auth === 'api-key' ? { authorizer } : {}),
        // Metered by the usage plan, against the key the authorizer names (IAM routes are the
        // operator's: only the stage's throttle applies to them).
        apiKeyRequired: route.auth === 'api-key',
        // SigV4: API Gateway checks the signature and the caller's IAM policy (`execute-api:Invoke`).
        ...(route.auth === 'iam' ? { authorizationType: apigw.AuthorizationType.IAM } : {}),
        requestValidator: validator,
        requestParameters: pathParameters(route),
      });
      acknowledgeUnauthenticated(method, AUTH_REASONS[route.auth]);
    }
    const allowed: string[] = routes.map((route) => route.method).sort();
    if (props.corsAllowOrigins) {
      const preflight = resource.addCorsPreflight({
        allowOrigins: [...props.corsAllowOrigins],
        allowMethods: allowed,
        allowHeaders: [AUTHORIZATION_HEADER, 'Content-Type'],
      });
      acknowledgeUnauthenticated(preflight, { cognito: MOCK_METHOD_REASON, open: MOCK_METHOD_REASON });
      allowed.push('OPTIONS');
    }
    // Specific methods win over ANY, so ANY catches exactly the methods the resource does not serve.
    addMock(resource, methodNotAllowed(allowed), MOCK_METHOD_REASON);
  }
  addNotFound(api);
}

/**
 * Answers paths no route has with the 404 problem: the root greedy `/{proxy+}` catches every path no
 * explicit resource matches (explicit resources and their methods always win), and the resources
 * without a route of their own (the root, `/management`, …) get the same mock on `ANY`.
 */
function addNotFound(api: apigw.RestApi): void {
  const routePaths = new Set(API_ROUTES.map((route) => route.path));
  const prefixes = [...routePaths].flatMap((path) =>
    path.split('/').map((_, index, parts) => parts.slice(0, index).join('/') || '/'),
  );
  for (const path of new Set(prefixes)) {
    if (!routePaths.has(path)) addMock(api.root.resourceForPath(path), routeNotFound(), NOT_FOUND_REASON);
  }
  addMock(api.root.addResource('{proxy+}'), routeNotFound(), NOT_FOUND_REASON);
}

/** `method.request.path.<name>: true` for each `{name}` of the route's path. */
function pathParameters(route: RouteShape): Record<string, boolean> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => `method.request.path.${name}`);
  return Object.fromEntries(names.map((name) => [name, true]));
}

/** Adds `mock` on `ANY` of `resource`, without authorization, acknowledged with `reason`. */
function addMock(resource: apigw.IResource, mock: ProblemMock, reason: string): void {
  const method = resource.addMethod('ANY', mock.integration, mock.options);
  acknowledgeUnauthenticated(method, { cognito: reason, open: reason });
}

/** Cognito is never the right authorizer here; methods without any authorization also say why. */
function acknowledgeUnauthenticated(method: IConstruct, reasons: { cognito: string; open?: string }): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason: reasons.cognito });
  if (reasons.open) Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason: reasons.open });
}

/**
 * A Lambda proxy integration that grants nothing itself: the API grants each function one invoke
 * permission for its stage (see `addRoutes`), where `LambdaIntegration` would add one per method.
 */
function stageInvoked(fn: lambda.IFunction): apigw.Integration {
  return new apigw.Integration({
    type: apigw.IntegrationType.AWS_PROXY,
    integrationHttpMethod: 'POST',
    uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`,
  });
}
