/**
 * The API's routes and how callers authenticate: the stack wires them, the local runtime emulates them,
 * handlers rely on them.
 */
import type { FunctionKey } from './functions';

/** HTTP method of an API route. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone (`none`), an organization's API key checked by the Bearer authorizer
 * (`api-key`), or an AWS identity with `execute-api:Invoke`, SigV4-signed (`iam`).
 */
export type RouteAuth = 'none' | 'api-key' | 'iam';

/** Every scope an organization API key may have, as the API accepts them. */
export const KEY_SCOPES = ['read', 'manage'] as const;

/** What an organization API key may do: `read` events and accounts, or also `manage` them. */
export type KeyScope = (typeof KEY_SCOPES)[number];

/** An API Gateway route and the function that serves it. */
export interface RouteShape {
  readonly method: RouteMethod;
  /** Resource path in API Gateway syntax, e.g. `/events/{id}`. */
  readonly path: string;
  readonly fn: FunctionKey;
  readonly auth: RouteAuth;
  /**
   * For `api-key` routes: the scope the key needs (`read` when absent). The authorizer's policy allows a key
   * exactly the routes its scope covers (`lambdas/http/authorizer-policy.ts`); API Gateway denies the rest.
   */
  readonly scope?: KeyScope;
  /**
   * The request body may carry a secret (a sign-in token, a TLS client key): `apiHandler` never logs
   * the event, even with POWERTOOLS_LOGGER_LOG_EVENT set (`test/http/secret-bodies.test.ts`).
   */
  readonly secretBody?: true;
}

/**
 * An operator route: its method and resource path (SigV4-signed), served by `administer` unless it names
 * another function.
 */
export interface AdminRoute {
  readonly method: RouteMethod;
  /** Resource path in API Gateway syntax, e.g. `/admin/organizations/{org}`. */
  readonly path: string;
  /**
   * The function that serves it when not `administer`: one with rights `administer` must not have (the
   * test event's sender opens signing and client keys and reaches receivers).
   */
  readonly fn?: FunctionKey;
  /** The body may carry a secret (see {@link RouteShape.secretBody}). */
  readonly secretBody?: true;
}

/**
 * The operator's routes by operation name (their OpenAPI `operationId`): the one list the `administer`
 * handler dispatches from (its handlers are typed to cover exactly those it serves), the OpenAPI document
 * describes and the CLI resolves its commands' paths from.
 */
export const ADMIN_ROUTES = {
  createOrganization: { method: 'POST', path: '/admin/organizations' },
  getOrganization: { method: 'GET', path: '/admin/organizations/{org}' },
  createApiKey: { method: 'POST', path: '/admin/organizations/{org}/api-keys' },
  listApiKeys: { method: 'GET', path: '/admin/organizations/{org}/api-keys' },
  revokeApiKey: { method: 'DELETE', path: '/admin/organizations/{org}/api-keys/{key_id}' },
  rotateOrganizationToken: { method: 'POST', path: '/admin/organizations/{org}/webhook-token/rotate' },
  rotateOrganizationKeys: { method: 'POST', path: '/admin/organizations/{org}/webhook-keys/rotate' },
  setOrganizationSignatures: { method: 'PUT', path: '/admin/organizations/{org}/webhook-signatures' },
  getOrganizationOperationalWebhook: {
    method: 'GET',
    path: '/admin/organizations/{org}/operational-webhook',
  },
  setOrganizationOperationalWebhook: {
    method: 'PUT',
    path: '/admin/organizations/{org}/operational-webhook',
  },
  listOrganizationOperationalEvents: {
    method: 'GET',
    path: '/admin/organizations/{org}/operational-events',
  },
  registerUsageKey: { method: 'POST', path: '/admin/organizations/{org}/usage-key' },
  createPortalLink: { method: 'POST', path: '/admin/organizations/{org}/portal-links' },
  listOrganizationAccounts: { method: 'GET', path: '/admin/organizations/{org}/accounts' },
  requeueEvents: { method: 'POST', path: '/admin/organizations/{org}/events/requeue' },
  redeliverOrganizationEvent: { method: 'POST', path: '/admin/organizations/{org}/events/{id}/redeliver' },
  resetOrganizationWebhooks: { method: 'POST', path: '/admin/organizations/{org}/webhooks/reset' },
  indexEventStatuses: { method: 'POST', path: '/admin/organizations/{org}/events/index-statuses' },
  migrateEvents: { method: 'POST', path: '/admin/organizations/{org}/events/migrate' },
  putAccount: { method: 'PUT', path: '/admin/accounts/{iban}', secretBody: true },
  deleteAccount: { method: 'DELETE', path: '/admin/accounts/{iban}' },
  adminEnableEndpoint: { method: 'POST', path: '/admin/accounts/{iban}/enable' },
  adminReplayAccount: { method: 'POST', path: '/admin/accounts/{iban}/replay' },
  adminSendTestEvent: { method: 'POST', path: '/admin/accounts/{iban}/test-events', fn: 'sendTestEvent' },
  adminListEndpoints: { method: 'GET', path: '/admin/accounts/{iban}/endpoints' },
  adminAddEndpoint: { method: 'POST', path: '/admin/accounts/{iban}/endpoints', secretBody: true },
  adminGetEndpoint: { method: 'GET', path: '/admin/accounts/{iban}/endpoints/{endpoint_id}' },
  adminUpdateEndpoint: {
    method: 'PUT',
    path: '/admin/accounts/{iban}/endpoints/{endpoint_id}',
    secretBody: true,
  },
  adminRemoveEndpoint: { method: 'DELETE', path: '/admin/accounts/{iban}/endpoints/{endpoint_id}' },
  adminListEventTypes: { method: 'GET', path: '/admin/event-types' },
  adminGetEventType: { method: 'GET', path: '/admin/event-types/{type}' },
  putEventType: { method: 'PUT', path: '/admin/event-types/{type}' },
} as const satisfies Readonly<Record<string, AdminRoute>>;

/** The name of an operator route in {@link ADMIN_ROUTES}. */
export type AdminOperation = keyof typeof ADMIN_ROUTES;

/** The operator routes `administer` serves: those that name no other function. */
export type AdministeredOperation = {
  [K in AdminOperation]: (typeof ADMIN_ROUTES)[K] extends { readonly fn: FunctionKey } ? never : K;
}[AdminOperation];

/** The function serving an operator route. */
export const adminRouteFunction = (route: AdminRoute): FunctionKey => route.fn ?? 'administer';

/** An organization key's route, reading (`read`, the default) or changing (`manage`) its data. */
const keyRoute = (method: RouteMethod, path: string, fn: FunctionKey, scope?: KeyScope): RouteShape => ({
  method,
  path,
  fn,
  auth: 'api-key',
  ...(scope === undefined ? {} : { scope }),
});

/** Every route of the API. Methods not listed for a path answer 405; unknown paths answer 404. */
export const API_ROUTES: readonly RouteShape[] = [
  { method: 'GET', path: '/health', fn: 'health', auth: 'none' },
  { method: 'GET', path: '/openapi.json', fn: 'openapi', auth: 'none' },
  keyRoute('GET', '/events', 'listEvents'),
  keyRoute('GET', '/events/{id}', 'getEvent'),
  keyRoute('POST', '/events/{id}/redeliver', 'redeliverEvent', 'manage'),
  // A replay is redelivery of an account's events after a sequence: served by the same function.
  keyRoute('POST', '/accounts/{iban}/replay', 'redeliverEvent', 'manage'),
  keyRoute('POST', '/management/webhooks/reset', 'resetWebhooks', 'manage'),
  keyRoute('GET', '/accounts', 'listAccounts'),
  keyRoute('GET', '/accounts/{iban}', 'getAccount'),
  keyRoute('GET', '/accounts/{iban}/delivery-stats', 'getDeliveryStats'),
  // The organization's notices about its endpoints: read beside their delivery summaries.
  keyRoute('GET', '/operational-events', 'getDeliveryStats'),
  keyRoute('GET', '/operational-events/{id}', 'getDeliveryStats'),
  // The catch-up feed reads events, as the listing does: served by its function.
  keyRoute('GET', '/accounts/{iban}/events', 'listEvents'),
  keyRoute('POST', '/accounts/{iban}/enable', 'enableEndpoint', 'manage'),
  keyRoute('POST', '/accounts/{iban}/test-events', 'sendTestEvent', 'manage'),
  { method: 'GET', path: '/portal', fn: 'portal', auth: 'none' },
  { method: 'POST', path: '/portal/session', fn: 'portalSession', auth: 'none', secretBody: true },
  // Sign-out: any scope may end its own session (the handler refuses keys that are not sessions).
  keyRoute('DELETE', '/portal/session', 'portalSession'),
  // tls_client_key: a secret in the body.
  { ...keyRoute('PUT', '/accounts/{iban}', 'manageSettings', 'manage'), secretBody: true },
  // An account's endpoints: read with the account, changed with its settings.
  keyRoute('GET', '/accounts/{iban}/endpoints', 'getAccount'),
  keyRoute('GET', '/accounts/{iban}/endpoints/{endpoint_id}', 'getAccount'),
  { ...keyRoute('POST', '/accounts/{iban}/endpoints', 'manageSettings', 'manage'), secretBody: true },
  {
    ...keyRoute('PUT', '/accounts/{iban}/endpoints/{endpoint_id}', 'manageSettings', 'manage'),
    secretBody: true,
  },
  keyRoute('DELETE', '/accounts/{iban}/endpoints/{endpoint_id}', 'manageSettings', 'manage'),
  keyRoute('GET', '/webhook-token', 'manageSettings', 'manage'),
  keyRoute('POST', '/webhook-token/rotate', 'manageSettings', 'manage'),
  // Public keys are no secret: a `read` key lists them (receivers' deployments often hold only one).
  keyRoute('GET', '/webhook-keys', 'manageSettings'),
  keyRoute('POST', '/webhook-keys/rotate', 'manageSettings', 'manage'),
  keyRoute('PUT', '/webhook-signatures', 'manageSettings', 'manage'),
  // Where the organization's operational notices go: any key reads it (as the public keys), `manage` sets it.
  keyRoute('GET', '/operational-webhook', 'manageSettings'),
  keyRoute('PUT', '/operational-webhook', 'manageSettings', 'manage'),
  // The catalog of event types: the same for every organization, any scope reads it.
  keyRoute('GET', '/event-types', 'eventTypes'),
  keyRoute('GET', '/event-types/{type}', 'eventTypes'),
  { method: 'POST', path: '/events', fn: 'publishEvent', auth: 'iam' },
  { method: 'POST', path: '/events/batch', fn: 'publishEvent', auth: 'iam' },
  ...Object.values(ADMIN_ROUTES).map(
    (route: AdminRoute): RouteShape => ({ ...route, fn: adminRouteFunction(route), auth: 'iam' }),
  ),
];

/**
 * How long API Gateway caches an authorizer decision for one API key: a revoked or expired key is
 * refused at most this long after the change.
 */
export const AUTHORIZER_CACHE_TTL_SECONDS = 60;

/** The request header the authorizer reads. */
export const AUTHORIZATION_HEADER = 'Authorization';

/**
 * The `Authorization` value the API accepts: exactly `Bearer herald_<43 base64url characters>`.
 * API Gateway caches authorizer decisions by the header's exact text, so each key has one accepted
 * spelling: `bearer`, extra blanks or a malformed key are refused by the gateway's regex (401) without
 * invoking the authorizer, and cannot be used to bypass the cache. The emulator and the authorizer use the
 * same pattern. Valid as both a Java and a JS pattern.
 */
export const BEARER_PATTERN = '^Bearer herald_[A-Za-z0-9_-]{43}$';
