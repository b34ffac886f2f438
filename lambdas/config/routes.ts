/**
 * The API's routes and how callers authenticate: the stack wires them, the local runtime emulates them,
 * handlers rely on them.
 */
import type { AccessScope } from '#domain/model';
import type { FunctionKey } from './functions';

/** HTTP method of an API route. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone (`none`), an organization's API key checked by the Bearer authorizer
 * (`api-key`), or an AWS identity with `execute-api:Invoke`, SigV4-signed (`iam`).
 */
export type RouteAuth = 'none' | 'api-key' | 'iam';

/** What an organization API key may do: `read` events and accounts, or also `manage` them. */
export type KeyScope = AccessScope;

/** An API Gateway route and the function that serves it. */
export interface RouteShape {
  readonly method: RouteMethod;
  /** Resource path in API Gateway syntax, e.g. `/events/{id}`. */
  readonly path: string;
  readonly fn: FunctionKey;
  readonly auth: RouteAuth;
  /** For `api-key` routes: the scope the key needs (`read` when absent). */
  readonly scope?: KeyScope;
}

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
  { method: 'GET', path: '/portal', fn: 'portal', auth: 'none' },
  { method: 'POST', path: '/portal/session', fn: 'openPortalSession', auth: 'none' },
  {
    method: 'POST',
    path: '/admin/organizations/{org}/portal-links',
    fn: 'createPortalLink',
    auth: 'iam',
  },
];

/** How long API Gateway caches an authorizer decision for one API key. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;

/** The request header the authorizer reads. */
export const AUTHORIZATION_HEADER = 'Authorization';

/**
 * The `Authorization` value the API accepts: `Bearer <key>`, scheme case-insensitive.
 * API Gateway validates the header with it before invoking (and paying for) the authorizer, the emulator
 * does the same, and the authorizer extracts the key with it. Valid as both a Java and a JS pattern.
 */
export const BEARER_PATTERN = String.raw`^[Bb][Ee][Aa][Rr][Ee][Rr]\s+\S+\s*$`;
