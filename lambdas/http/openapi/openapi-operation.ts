/**
 * How every operation of the OpenAPI document is built: its security, and the answers every route of its
 * kind shares, from the route's entry in `API_ROUTES`.
 */
import { API_ROUTES, type RouteMethod, type RouteShape } from '#config/routes';
import {
  BEARER_SCHEME,
  type JsonSchema,
  type OperationObject,
  type PathItemObject,
  parameterRef,
  type Reference,
  responseRef,
  SIGV4_SCHEME,
} from './openapi-schemas';

/** The route of `API_ROUTES` an operation documents; an unknown one is documented as key-guarded. */
function routeOf(method: RouteMethod, path: string): Pick<RouteShape, 'auth' | 'scope'> {
  return API_ROUTES.find((route) => route.method === method && route.path === path) ?? { auth: 'api-key' };
}

/**
 * An operation with what every route shares: its security from {@link API_ROUTES}; 401 on API-key
 * routes; 403 on IAM routes (no or a wrong signature, an API key, a denying IAM policy) and on routes
 * that need the `manage` scope; and the gateway's 429 and 500, which any request can meet.
 */
export function operation(
  method: RouteMethod,
  path: string,
  op: Omit<OperationObject, 'security'>,
): PathItemObject {
  const route = routeOf(method, path);
  const security = { none: [], 'api-key': [{ [BEARER_SCHEME]: [] }], iam: [{ [SIGV4_SCHEME]: [] }] }[
    route.auth
  ];
  const forbidden: Record<string, Reference> =
    route.auth === 'iam'
      ? { '403': responseRef('SignatureProblem') }
      : route.scope === 'manage'
        ? { '403': responseRef('Forbidden', 'The API key has the `read` scope; this route needs `manage`.') }
        : {};
  const full: OperationObject = {
    ...op,
    security,
    responses: {
      ...op.responses,
      ...(route.auth === 'api-key' ? { '401': responseRef('Unauthorized') } : {}),
      ...forbidden,
      '429': responseRef('TooManyRequests'),
      '500': responseRef('InternalError'),
    },
  };
  return { [method.toLowerCase()]: full };
}

/** A JSON content object. */
export const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });

/** A required JSON request body. */
export const body = (schema: JsonSchema) => ({ required: true, content: json(schema) });

/** The path parameters of the `/admin/organizations/{org}/…` routes. */
export const ORG_PATH = [parameterRef('OrgId')];
