/**
 * How every operation of the OpenAPI document is built: its security, and the answers every route of its
 * kind shares, from the route's entry in `API_ROUTES`; and how the operations become the document's paths.
 */
import { API_ROUTES, type RouteMethod, type RouteShape } from '#config/routes';
import type { OperationObject, PathItemObject, Reference } from './objects';
import { BEARER_SCHEME, responseRef, SIGV4_SCHEME } from './objects';

/** One documented operation: the path it is on and its Path Item (with just this method). */
export interface RouteDoc {
  readonly path: string;
  readonly item: PathItemObject;
}

/**
 * An operation described once and served on more than one route (an organization key's and the
 * operator's, or several paths): each route gives it its id and tags, and {@link operation} its security.
 */
export type SharedOperation = Omit<OperationObject, 'operationId' | 'security' | 'tags'>;

/** The route of `API_ROUTES` an operation documents; an unknown one is documented as key-guarded. */
function routeOf(method: RouteMethod, path: string): Pick<RouteShape, 'auth' | 'scope'> {
  return API_ROUTES.find((route) => route.method === method && route.path === path) ?? { auth: 'api-key' };
}

/**
 * An operation with what every route shares: its security from {@link API_ROUTES}; 401 on API-key
 * routes; 403 on IAM routes (no or a wrong signature, an API key, a denying IAM policy) and on routes
 * that need the `manage` scope; and the gateway's 429 (unless the route has its own) and 500, which any
 * request can meet.
 */
export function operation(
  method: RouteMethod,
  path: string,
  op: Omit<OperationObject, 'security'>,
): RouteDoc {
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
      // A route with a limit of its own documents its 429 (which includes the gateway's).
      '429': op.responses['429'] ?? responseRef('TooManyRequests'),
      '500': responseRef('InternalError'),
    },
  };
  return { path, item: { [method.toLowerCase()]: full } };
}

/** `paths`: the operations grouped by path, each path's methods in one Path Item. */
export function pathsOf(docs: readonly RouteDoc[]): Record<string, PathItemObject> {
  const paths: Record<string, PathItemObject> = {};
  for (const { path, item } of docs) paths[path] = { ...paths[path], ...item };
  return paths;
}
