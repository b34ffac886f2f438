/**
 * The requests about accounts: a page of them (`GET /accounts` and the operator's listing), and those
 * that change one: its webhook URL and order (an organization key's `PUT /accounts/{iban}`, the
 * operator's `PUT /admin/accounts/{iban}`), deleting it, and enabling its endpoint again.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MAX_LIST_DEPTH } from '#config/limits';
import { STATS_WINDOW_NAMES, type StatsWindow } from '#domain/delivery-stats';
import { ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import { DELIVERY_ORDERS, type DeliveryOrder } from '#domain/model';
import type { AccountPageQuery } from '#domain/ports';
import { CURSOR, PAGING_QUERY, pageNumbers } from '#http/paging';
import { readBody, readQuery } from '#http/read-request';
import {
  body,
  closed,
  described,
  flag,
  nullable,
  oneOfValues,
  optional,
  optionalBody,
  text,
  withReason,
} from '#http/schema';
import { parseTimestampParam, timestampParam } from '#http/timestamp-param';
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

/** How an account's events are delivered, as shown and as set. */
export const DELIVERY_ORDER = oneOfValues(
  DELIVERY_ORDERS,
  '`concurrent` (the default): each event is delivered on its own, retries of an older event may arrive ' +
    'after newer ones. `ordered`: an event is not attempted before every earlier event of the account (by ' +
    '`sequence`) is `success`, `failed` or `skipped`; a failing event holds back only its own account, and ' +
    'once it fails for good (its attempts used up, or `410`) the next events go on (metric ' +
    '`OrderedEventFailed`, alarmed; `GET /events?webhook_status=failed`). Circuit breaker, slots, ' +
    '`Retry-After`, `410` and the attempt schedule work in both.',
);

/**
 * The fields of every account write (`PUT /accounts/{iban}` and the operator's twin), each optional:
 * absent keeps what is stored, `null` removes it.
 */
const ACCOUNT_WRITE_FIELDS = {
  webhook_url: optional(
    withReason(
      nullable(
        text(
          'Where webhooks go. Absent: the stored URL stays (a new account has none); null: removed, the ' +
            "account's events are then recorded as `skipped`.",
          { format: 'uri', minLength: 1 },
        ),
      ),
      'must be a URL string, or null to stop deliveries (leave it out to keep the stored URL)',
    ),
  ),
  delivery_order: optional(
    described(
      DELIVERY_ORDER,
      'Absent: the stored order stays (a new account is `concurrent`); `concurrent` sets it back.',
    ),
  ),
  ...ENDPOINT_SECURITY_FIELDS,
};

/** The body of an organization key's `PUT /accounts/{iban}`. */
export const ACCOUNT_WRITE_BODY = body(closed(ACCOUNT_WRITE_FIELDS));

/** The body of the operator's `PUT /admin/accounts/{iban}`: the owner, and the fields of any account write. */
export const ADMIN_ACCOUNT_BODY = body(
  closed({ org: text('The organization that owns the account.', { minLength: 1 }), ...ACCOUNT_WRITE_FIELDS }),
);

/** What an account write changes besides its endpoint security: each field absent keeps what is stored. */
export interface AccountSettingsRequest {
  /** A URL replaces the stored one, null removes it. */
  readonly webhookUrl?: string | null;
  readonly deliveryOrder?: DeliveryOrder;
}

/**
 * The body of an organization key's `PUT /accounts/{iban}` by {@link ACCOUNT_WRITE_BODY}: `webhook_url`,
 * `delivery_order` and the endpoint-security fields, each optional (absent keeps what is stored, `null`
 * removes it; an empty string is no way to say either).
 *
 * @throws ValidationError naming the field
 */
export function parseWebhookUrlRequest(event: APIGatewayProxyEvent): AccountSettingsRequest {
  return accountSettings(readBody(event, ACCOUNT_WRITE_BODY));
}

/**
 * The body of the operator's `PUT /admin/accounts/{iban}` by {@link ADMIN_ACCOUNT_BODY}: `org`, and the
 * fields of an organization's `PUT /accounts/{iban}` (a new account has no URL).
 *
 * @throws ValidationError naming the field
 */
export function parseAccountRequest(
  event: APIGatewayProxyEvent,
): AccountSettingsRequest & { readonly orgId: string } {
  const { org, ...fields } = readBody(event, ADMIN_ACCOUNT_BODY);
  return { orgId: org, ...accountSettings(fields) };
}

/** The settings a write names; those it leaves out stay as stored. */
function accountSettings(fields: {
  readonly webhook_url?: string | null;
  readonly delivery_order?: DeliveryOrder;
}): AccountSettingsRequest {
  return {
    ...(fields.webhook_url === undefined ? {} : { webhookUrl: fields.webhook_url }),
    ...(fields.delivery_order === undefined ? {} : { deliveryOrder: fields.delivery_order }),
  };
}

/** The query of `DELETE /admin/accounts/{iban}`. */
export const ACCOUNT_DELETION_QUERY = closed({
  erase: optional(flag('Also erase the events of the account.')),
  org: optional(
    text('The organization of the account; optional, the account or its reserved IBAN names it.'),
  ),
  cursor: optional(text('Where the previous erasure request stopped.')),
});

/**
 * The query of `DELETE /admin/accounts/{iban}` by {@link ACCOUNT_DELETION_QUERY}.
 *
 * @throws ValidationError naming the parameter
 */
export function parseAccountDeletion(event: APIGatewayProxyEvent): {
  erase: boolean;
  orgId: string | undefined;
  cursor: string | undefined;
} {
  const query = readQuery(event.multiValueQueryStringParameters, ACCOUNT_DELETION_QUERY);
  return { erase: query.erase ?? false, orgId: query.org, cursor: query.cursor };
}

/** The optional body of `POST /accounts/{iban}/enable` and its operator twin. */
export const ENABLE_BODY = optionalBody(
  closed({
    recover_since: optional(timestampParam('Redeliver events since then, UTC.')),
    cursor: optional(
      described(CURSOR, 'The `cursor` of the previous answer, with the same `recover_since`, to go on.'),
    ),
  }),
);

/**
 * The body of `POST /accounts/{iban}/enable` and its operator twin by {@link ENABLE_BODY}: empty, or
 * `{"recover_since": "YYYY-MM-DD HH:MM:SS", "cursor"?}` (UTC, read into ISO; the cursor of the previous
 * answer goes on with the same recovery).
 *
 * @throws ValidationError naming the field for anything else
 */
export function parseEnableRequest(event: APIGatewayProxyEvent): {
  recovery?: { since: string; cursor?: string };
} {
  const { recover_since, cursor } = readBody(event, ENABLE_BODY);
  if (recover_since === undefined) {
    if (cursor !== undefined) {
      throw new ValidationError('recover_since', 'is required with cursor: send the same time again');
    }
    return {};
  }
  const since = parseTimestampParam('recover_since', recover_since);
  return { recovery: cursor === undefined ? { since } : { since, cursor } };
}
