/**
 * The requests about accounts: a page of them (`GET /accounts` and the operator's listing), and those
 * that change one: its webhook URL and order (an organization key's `PUT /accounts/{iban}`, the
 * operator's `PUT /admin/accounts/{iban}`), deleting it, and enabling its endpoint again.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MAX_LIST_DEPTH } from '#config/limits';
import { DELIVERY_ORDERS, type DeliveryOrder } from '#domain/delivery/order-gate';
import { STATS_WINDOW_NAMES, type StatsWindow } from '#domain/delivery-stats';
import { ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { AccountPageQuery } from '#domain/ports';
import { PAGING_QUERY, pageNumbers } from '#http/paging';
import { readQuery } from '#http/read-request';
import { jsonBody, queryParams } from '#http/request';
import { closed, oneOfValues, optional, text } from '#http/schema';
import { parseTimestampParam, TIMESTAMP_PARAM_REASON } from '#http/timestamp-param';
import { ENDPOINT_SECURITY_FIELDS } from './endpoint-security-request';

/** The query of `GET /accounts` (and `GET /admin/organizations/{org}/accounts`). */
export const ACCOUNT_LIST_QUERY = closed({
  ...PAGING_QUERY,
  after: optional(
    text(
      'Only accounts whose IBAN sorts after this one (any case, blanks allowed): where the `next` link ' +
        `goes on once \`page × per_page\` would pass ${MAX_LIST_DEPTH}.`,
    ),
  ),
});

/**
 * The query of an account listing: `page` and `per_page` as `GET /events` reads them, and `after`, an
 * IBAN the listing starts after (where the `next` link goes once `page × per_page` reaches the depth
 * bound).
 *
 * @throws ValidationError naming the parameter
 */
export function parseAccountListQuery(event: APIGatewayProxyEvent): AccountPageQuery {
  const { after, ...paging } = readQuery(event.multiValueQueryStringParameters, ACCOUNT_LIST_QUERY);
  const numbers = pageNumbers(
    paging,
    'to go further, set after to the last IBAN you have and start again at page 1 (the next links do)',
  );
  return after === undefined ? numbers : { ...numbers, after: parseIban('after', after) };
}

/** The query of `GET /accounts/{iban}/delivery-stats`. */
export const DELIVERY_STATS_QUERY = closed({
  window: optional(oneOfValues(STATS_WINDOW_NAMES, 'One window to summarise; both when absent.')),
});

/**
 * The query of `GET /accounts/{iban}/delivery-stats`: `window` (`24h` or `7d`) for one window, none for
 * every window (the portal's charts, from one call).
 *
 * @throws ValidationError naming `window` or an unknown parameter
 */
export function parseDeliveryStatsQuery(event: APIGatewayProxyEvent): StatsWindow[] {
  const { window } = readQuery(event.multiValueQueryStringParameters, DELIVERY_STATS_QUERY);
  return window === undefined ? [...STATS_WINDOW_NAMES] : [window];
}

/** What an account write changes besides its endpoint security: each field absent keeps what is stored. */
export interface AccountSettingsRequest {
  /** A URL replaces the stored one, null removes it. */
  readonly webhookUrl?: string | null;
  readonly deliveryOrder?: DeliveryOrder;
}

/**
 * The body of an organization key's `PUT /accounts/{iban}`: `webhook_url`, `delivery_order` and the
 * endpoint-security fields, each optional (absent keeps what is stored, `null` removes it).
 *
 * @throws ValidationError naming the field
 */
export function parseWebhookUrlRequest(event: APIGatewayProxyEvent): AccountSettingsRequest {
  const { webhook_url, delivery_order } = jsonBody(event, [
    'webhook_url',
    'delivery_order',
    ...ENDPOINT_SECURITY_FIELDS,
  ]);
  return { ...parseWebhookUrl(webhook_url), ...parseDeliveryOrder(delivery_order) };
}

/**
 * The optional `webhook_url` of an account write: absent keeps the stored URL, `null` removes it (an
 * empty string is no way to say either).
 *
 * @throws ValidationError naming `webhook_url`
 */
function parseWebhookUrl(value: unknown): { webhookUrl?: string | null } {
  if (value === undefined) return {};
  if (value === null || (typeof value === 'string' && value !== '')) return { webhookUrl: value };
  throw new ValidationError(
    'webhook_url',
    'must be a URL string, or null to stop deliveries (leave it out to keep the stored URL)',
  );
}

/**
 * The optional `delivery_order` of an account write: absent keeps the stored order.
 *
 * @throws ValidationError naming `delivery_order` and the values allowed
 */
function parseDeliveryOrder(value: unknown): { deliveryOrder?: DeliveryOrder } {
  if (value === undefined) return {};
  const known = DELIVERY_ORDERS.find((order) => order === value);
  if (known === undefined) {
    throw new ValidationError('delivery_order', `must be one of ${DELIVERY_ORDERS.join(', ')}`);
  }
  return { deliveryOrder: known };
}

/**
 * The body of the operator's `PUT /admin/accounts/{iban}`: `org`, and the fields of an organization's
 * `PUT /accounts/{iban}`, each optional (absent keeps what is stored; a new account has no URL).
 *
 * @throws ValidationError naming the field
 */
export function parseAccountRequest(
  event: APIGatewayProxyEvent,
): AccountSettingsRequest & { readonly orgId: string } {
  const body = jsonBody(event, ['org', 'webhook_url', 'delivery_order', ...ENDPOINT_SECURITY_FIELDS]);
  if (typeof body.org !== 'string' || body.org === '') throw new ValidationError('org', 'is required');
  return {
    orgId: body.org,
    ...parseWebhookUrl(body.webhook_url),
    ...parseDeliveryOrder(body.delivery_order),
  };
}

/**
 * The query of `DELETE /admin/accounts/{iban}`: `erase` (`true`/`false`), `org` and `cursor`.
 *
 * @throws ValidationError naming the parameter
 */
export function parseAccountDeletion(event: APIGatewayProxyEvent): {
  erase: boolean;
  orgId: string | undefined;
  cursor: string | undefined;
} {
  const query = queryParams(event, ['erase', 'org', 'cursor']);
  if (query.erase !== undefined && query.erase !== 'true' && query.erase !== 'false') {
    throw new ValidationError('erase', 'must be true or false');
  }
  return { erase: query.erase === 'true', orgId: query.org, cursor: query.cursor };
}

/**
 * The body of `POST /accounts/{iban}/enable` and its operator twin: empty, or
 * `{"recover_since": "YYYY-MM-DD HH:MM:SS", "cursor"?}` (UTC, read into ISO; the cursor of the previous
 * answer goes on with the same recovery).
 *
 * @throws ValidationError naming the field for anything else
 */
export function parseEnableRequest(event: APIGatewayProxyEvent): {
  recovery?: { since: string; cursor?: string };
} {
  if (event.body === null || event.body.trim() === '') return {};
  const { recover_since, cursor } = jsonBody(event, ['recover_since', 'cursor']);
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '')) {
    throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
  }
  if (recover_since === undefined) {
    if (cursor !== undefined) {
      throw new ValidationError('recover_since', 'is required with cursor: send the same time again');
    }
    return {};
  }
  if (typeof recover_since !== 'string') {
    throw new ValidationError('recover_since', TIMESTAMP_PARAM_REASON);
  }
  const since = parseTimestampParam('recover_since', recover_since);
  return { recovery: cursor === undefined ? { since } : { since, cursor } };
}
