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
}

/** The operator's routes, all served by the `administer` function and signed with SigV4. */
const ADMIN_ROUTES: readonly (readonly [RouteMethod, string])[] = [
  ['POST', '/admin/organizations'],
  ['GET', '/admin/organizations/{org}'],
  ['POST', '/admin/organizations/{org}/api-keys'],
  ['GET', '/admin/organizations/{org}/api-keys'],
  ['DELETE', '/admin/organizations/{org}/api-keys/{key_id}'],
  ['POST', '/admin/organizations/{org}/webhook-token/rotate'],
  ['POST', '/admin/organizations/{org}/usage-key'],
  ['POST', '/admin/organizations/{org}/portal-links'],
  ['GET', '/admin/organizations/{org}/accounts'],
  ['POST', '/admin/organizations/{org}/events/requeue'],
  ['POST', '/admin/organizations/{org}/events/{id}/redeliver'],
  ['POST', '/admin/organizations/{org}/webhooks/reset'],
  ['POST', '/admin/organizations/{org}/events/index-statuses'],
  ['PUT', '/admin/accounts/{iban}'],
  ['DELETE', '/admin/accounts/{iban}'],
  ['POST', '/admin/accounts/{iban}/enable'],
];

/** Every route of the API. Methods not listed for a path answer 405; unknown paths answer 404. */
export const API_ROUTES: readonly RouteShape[] = [
  { method: 'GET', path: '/health', fn: 'health', auth: 'none' },
  { method: 'GET', path: '/openapi.json', fn: 'openapi', auth: 'none' },
  { method: 'GET', path: '/events', fn: 'listEvents', auth: 'api-key' },
  { method: 'GET', path: '/events/{id}', fn: 'getEvent', auth: 'api-key' },
  { method: 'POST', path: '/events/{id}/redeliver', fn: 'redeliverEvent', auth: 'api-key', scope: 'manage' },
  {
    method: 'POST',
    path: '/management/webhooks/reset',
    fn: 'resetWebhooks',
    auth: 'api-key',
    scope: 'manage',
  },
  { method: 'GET', path: '/accounts', fn: 'listAccounts', auth: 'api-key' },
  { method: 'GET', path: '/accounts/{iban}', fn: 'getAccount', auth: 'api-key' },
  {
    method: 'POST',
    path: '/accounts/{iban}/enable',
    fn: 'enableEndpoint',
    auth: 'api-key',
    scope: 'manage',
  },
  { method: 'GET', path: '/portal', fn: 'portal', auth: 'none' },
  { method: 'POST', path: '/portal/session', fn: 'openPortalSession', auth: 'none' },
  { method: 'PUT', path: '/accounts/{iban}', fn: 'manageSettings', auth: 'api-key', scope: 'manage' },
  { method: 'GET', path: '/webhook-token', fn: 'manageSettings', auth: 'api-key', scope: 'manage' },
  { method: 'POST', path: '/webhook-token/rotate', fn: 'manageSettings', auth: 'api-key', scope: 'manage' },
  { method: 'POST', path: '/events', fn: 'publishEvent', auth: 'iam' },
  ...ADMIN_ROUTES.map(([method, path]) => ({ method, path, fn: 'administer', auth: 'iam' }) as const),
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
