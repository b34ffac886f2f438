/**
 * The query of `GET /events`: paging and filters, read strictly so a typo answers 400 instead of
 * silently listing everything.
 */
import { ValidationError } from '#domain/errors';
import { parseEventType } from '#domain/event-input';
import { parseIban } from '#domain/iban';
import { WEBHOOK_STATUSES, type WebhookStatus } from '#domain/model';
import type { EventFilters, EventPageQuery } from '#domain/ports';
import { renderTimestamp } from '#domain/time';
import { parsePageNumbers } from '#http/paging';
import { parseTimestampParam } from '#http/timestamp-param';

/** Every query parameter of `GET /events`, in canonical order. */
export const LIST_QUERY_PARAMS = [
  'page',
  'per_page',
  'account',
  'type',
  'webhook_status',
  'since',
  'until',
] as const;

/** Name of a parameter of `GET /events`. */
export type ListQueryParam = (typeof LIST_QUERY_PARAMS)[number];

export { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '#http/paging';

/**
 * Parses API Gateway's `multiValueQueryStringParameters` (values already percent-decoded).
 *
 * Integers must be written in canonical decimal (`5`, not `05`, `+5`, `5.0` or `5e0`), so each page has
 * exactly one URL and caches see no aliases. Each parameter may appear once; an empty value is invalid.
 *
 * @throws ValidationError naming the first offending parameter: unknown names first, then repeated
 *   ones, then values in {@link LIST_QUERY_PARAMS} order
 */
export function parseListQuery(multi: Record<string, string[] | undefined> | null): EventPageQuery {
  const values = new Map<string, string>();
  const entries = Object.entries(multi ?? {}).filter(
    (entry): entry is [string, string[]] => entry[1] !== undefined && entry[1].length > 0,
  );
  const known = new Set<string>(LIST_QUERY_PARAMS);
  const unknown = entries.map(([name]) => name).filter((name) => !known.has(name));
  const firstUnknown = unknown.sort()[0];
  if (firstUnknown !== undefined) {
    throw new ValidationError(firstUnknown, `unknown parameter; allowed: ${LIST_QUERY_PARAMS.join(', ')}`);
  }
  for (const [name, list] of entries) {
    if (list.length > 1) throw new ValidationError(name, 'given more than once');
    values.set(name, list[0] ?? '');
  }

  const page = values.get('page');
  const perPage = values.get('per_page');
  const account = values.get('account');
  const type = values.get('type');
  const status = values.get('webhook_status');
  const since = values.get('since');
  const until = values.get('until');

  const filters: { -readonly [K in keyof EventFilters]: EventFilters[K] } = {};
  // Offset paging reads every skipped entry, so the depth is bounded; a time window reaches further back.
  const numbers = parsePageNumbers(
    page,
    perPage,
    'to reach older events, set until to the triggered_at of the last event you have (or use since and ' +
      'until) and start again at page 1',
  );
  const query = { ...numbers, filters };
  if (account !== undefined) filters.account = parseIban('account', account);
  if (type !== undefined) filters.type = parseEventType('type', type);
  if (status !== undefined) filters.status = parseStatus(status);
  if (since !== undefined) filters.since = parseTimestampParam('since', since);
  if (until !== undefined) filters.until = parseTimestampParam('until', until);
  // Both are ISO strings of the same width, so string order is time order.
  if (filters.since !== undefined && filters.until !== undefined && filters.since > filters.until) {
    throw new ValidationError('until', 'must not be earlier than since');
  }
  return query;
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
  ];
  return pairs
    .filter((pair): pair is [ListQueryParam, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
}

function parseStatus(text: string): WebhookStatus {
  const status = WEBHOOK_STATUSES.find((candidate) => candidate === text);
  if (status === undefined) {
    throw new ValidationError('webhook_status', `must be one of ${WEBHOOK_STATUSES.join(', ')}`);
  }
  return status;
}
