/**
 * The query of `GET /events`: paging and filters, read strictly so a typo answers 400 instead of
 * silently listing everything.
 */
import { ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { EventFilters, EventPageQuery } from '#domain/ports';
import { renderTimestamp } from '#domain/time';
import { PAGING_QUERY, pageNumbers } from '#http/paging';
import { readQuery } from '#http/read-request';
import {
  closed,
  described,
  ENDPOINT_ID,
  EVENT_TYPE,
  optional,
  ref,
  type Static,
  text,
  WEBHOOK_STATUS,
} from '#http/schema';
import { parseTimestampParam, timestampParam } from '#http/timestamp-param';

/** The query of `GET /events`, its parameters in canonical order. */
export const LIST_QUERY = closed({
  ...PAGING_QUERY,
  account: optional(text('Only events of this IBAN (any case, blanks allowed).')),
  type: optional(described(ref('EventType', EVENT_TYPE), 'Only events of this type.')),
  webhook_status: optional(
    described(ref('WebhookStatus', WEBHOOK_STATUS), 'Only events in this delivery state.'),
  ),
  since: optional(timestampParam('Only events triggered at or after this UTC time.')),
  until: optional(timestampParam('Only events triggered at or before; not before `since`.')),
  endpoint_id: optional(
    described(
      ENDPOINT_ID,
      "Only events routed to this endpoint of `account` (required with it): for the account's default " +
        'endpoint, its events not routed elsewhere only; for an extra endpoint, newest first by sequence, ' +
        'with no other filter.',
    ),
  ),
});

/** Name of a parameter of `GET /events`. */
export type ListQueryParam = keyof Static<typeof LIST_QUERY>;

/** Every query parameter of `GET /events`, in canonical order. */
export const LIST_QUERY_PARAMS = Object.keys(LIST_QUERY.properties as object) as ListQueryParam[];

export { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '#http/paging';

/**
 * Reads API Gateway's `multiValueQueryStringParameters` (values already percent-decoded) by
 * {@link LIST_QUERY}, then the IBAN, the timestamps and the listing's depth.
 *
 * @throws ValidationError naming the first offending parameter: unknown names first, then repeated
 *   ones, then values in {@link LIST_QUERY_PARAMS} order
 */
export function parseListQuery(multi: Record<string, string[] | undefined> | null): EventPageQuery {
  const { account, type, webhook_status, since, until, endpoint_id, ...paging } = readQuery(
    multi,
    LIST_QUERY,
  );
  const filters: { -readonly [K in keyof EventFilters]: EventFilters[K] } = {};
  // Offset paging reads every skipped entry, so the depth is bounded; a time window reaches further back.
  const numbers = pageNumbers(
    paging,
    'to reach older events, set until to the triggered_at of the last event you have (or use since and ' +
      'until) and start again at page 1',
  );
  if (account !== undefined) filters.account = parseIban('account', account);
  if (type !== undefined) filters.type = type;
  if (webhook_status !== undefined) filters.status = webhook_status;
  if (since !== undefined) filters.since = parseTimestampParam('since', since);
  if (until !== undefined) filters.until = parseTimestampParam('until', until);
  if (endpoint_id !== undefined) {
    // An endpoint belongs to one account, whose partition holds its deliveries.
    if (filters.account === undefined) {
      throw new ValidationError(
        'endpoint_id',
        'needs account: the IBAN of the account the endpoint belongs to',
      );
    }
    filters.endpointId = endpoint_id;
  }
  // Both are ISO strings of the same width, so string order is time order.
  if (filters.since !== undefined && filters.until !== undefined && filters.since > filters.until) {
    throw new ValidationError('until', 'must not be earlier than since');
  }
  return { ...numbers, filters };
}

/**
 * The canonical query string (no leading `?`) of a listing: `page` and `per_page` always, then the
 * filters present, in {@link LIST_QUERY_PARAMS} order, timestamps in their rendered form.
 * `parseListQuery` reads it back to an equal query.
 */
export function toQueryString(query: EventPageQuery): string {
  const { filters } = query;
  const pairs: [ListQueryParam, string | undefined][] = [
    ['page', String(query.page)],
    ['per_page', String(query.perPage)],
    ['account', filters.account],
    ['type', filters.type],
    ['webhook_status', filters.status],
    ['since', filters.since === undefined ? undefined : renderTimestamp(filters.since)],
    ['until', filters.until === undefined ? undefined : renderTimestamp(filters.until)],
    ['endpoint_id', filters.endpointId],
  ];
  return pairs
    .filter((pair): pair is [ListQueryParam, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
}
