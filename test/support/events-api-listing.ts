/**
 * The events API as its end-to-end tests see it: the shapes of its answers, and helpers that compute
 * the listing the API must give (`expectedIds`) and walk its pages checking every `Link` header.
 */

import { expect } from 'vitest';
import type { WebhookStatus } from '#domain/model';
import type { EndpointHealthView } from '#http/accounts/account-view';
import type { EndpointSecurityView } from '#http/accounts/endpoint-security-view';
import type { ApiClient, ApiResponse } from './e2e-http';

export const SUMMARY_KEYS = [
  '_links',
  'account',
  'id',
  'sequence',
  'signature',
  'triggered_at',
  'type',
  'type_version',
  'webhook_retries',
  'webhook_status',
];
export const DETAIL_KEYS = [
  ...SUMMARY_KEYS,
  'payload',
  'next_attempt_at',
  'webhook_deliveries',
  'endpoints',
].sort();
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export interface Links {
  readonly self: string;
  readonly account: string;
}

export interface EventSummary {
  readonly id: string;
  readonly signature: string | null;
  readonly account: string;
  readonly sequence: number | null;
  readonly type: string;
  readonly type_version: number | null;
  readonly triggered_at: string;
  readonly webhook_status: WebhookStatus;
  readonly webhook_retries: number;
  readonly _links: Links;
}

export interface Delivery {
  readonly delivery_at: string;
  readonly response_body: string;
  readonly response_status: number;
  readonly response_time: number;
  readonly url: string | null;
  readonly signing_keys: readonly string[];
}

export interface EventDetail extends EventSummary {
  readonly payload: unknown;
  readonly next_attempt_at: string | null;
  readonly webhook_deliveries: readonly Delivery[];
}

export interface AccountView extends EndpointSecurityView {
  readonly iban: string;
  readonly webhook_url: string | null;
  readonly endpoint_id: string | null;
  readonly delivery_order: 'concurrent' | 'ordered';
  readonly webhook_health: EndpointHealthView;
  readonly _links: { readonly self: string; readonly events: string };
}

/** What the listing helpers need of a published event. */
export interface ListedEvent {
  readonly id: string;
  readonly account: string;
  readonly type: string;
  /** ISO 8601. */
  readonly triggeredAt: string;
}

export interface Filter {
  readonly account?: string;
  readonly type?: string;
  readonly status?: WebhookStatus;
  /** Rendered, inclusive. */
  readonly since?: string;
  /** Rendered, inclusive of the whole second. */
  readonly until?: string;
}

export interface Walk {
  readonly ids: string[];
  readonly pages: number;
  readonly events: EventSummary[];
}

/** The helpers that depend on the running API and on the seeded events' statuses. */
export interface Listing<E extends ListedEvent> {
  /** The ids the API must list for a filter: newest first by triggeredAt, ties by id, both descending. */
  expectedIds(events: readonly E[], filter?: Filter): string[];
  /**
   * Follows `rel="next"` from the first page until it is absent, checking on every page that `first`
   * is page 1, `prev` is there exactly past page 1 and points one back, every page but the last is full,
   * and every link keeps the filters (`keep`) and `per_page`.
   */
  walk(path: string, key: string, perPage: number, keep: Record<string, string>): Promise<Walk>;
}

/** The listing helpers for the API at `base`, whose events have the statuses `statusOf` gives. */
export function createListing<E extends ListedEvent>(
  api: ApiClient,
  base: string,
  statusOf: (event: E) => WebhookStatus,
): Listing<E> {
  function expectedIds(events: readonly E[], filter: Filter = {}): string[] {
    const sinceIso = filter.since === undefined ? undefined : `${filter.since.replace(' ', 'T')}.000Z`;
    const untilIso = filter.until === undefined ? undefined : `${filter.until.replace(' ', 'T')}.999Z`;
    return events
      .filter(
        (event) =>
          (filter.account === undefined || event.account === filter.account) &&
          (filter.type === undefined || event.type === filter.type) &&
          (filter.status === undefined || statusOf(event) === filter.status) &&
          (sinceIso === undefined || event.triggeredAt >= sinceIso) &&
          (untilIso === undefined || event.triggeredAt <= untilIso),
      )
      .sort((a, b) =>
        a.triggeredAt === b.triggeredAt
          ? compare(b.id, a.id)
          : compare(new Date(b.triggeredAt).toISOString(), new Date(a.triggeredAt).toISOString()),
      )
      .map((event) => event.id);
  }

  /** Query parameters of a link, as a plain object (values decoded). */
  function queryOf(url: string): Record<string, string> {
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${base}/events`);
    const query: Record<string, string> = {};
    for (const [name, value] of parsed.searchParams) {
      expect(query[name], `${name} repeated in ${url}`).toBeUndefined();
      query[name] = value;
    }
    return query;
  }

  async function walk(
    path: string,
    key: string,
    perPage: number,
    keep: Record<string, string>,
  ): Promise<Walk> {
    const events: EventSummary[] = [];
    let url: string | undefined = path;
    let page = 0;
    while (url !== undefined) {
      page++;
      expect(page, 'the walk does not end').toBeLessThan(200);
      const response = await api.call(url, { key });
      expect(response.status, response.text).toBe(200);
      const body = response.body as EventSummary[];
      const links = parseLinks(response);
      expect(queryOf(links.get('first') ?? '')).toEqual({ page: '1', per_page: String(perPage), ...keep });
      if (page === 1) expect(links.has('prev')).toBe(false);
      else
        expect(queryOf(links.get('prev') ?? '')).toEqual({
          page: String(page - 1),
          per_page: String(perPage),
          ...keep,
        });
      const next = links.get('next');
      if (next !== undefined) {
        expect(body).toHaveLength(perPage);
        expect(queryOf(next)).toEqual({ page: String(page + 1), per_page: String(perPage), ...keep });
      } else {
        expect(body.length).toBeLessThanOrEqual(perPage);
      }
      events.push(...body);
      url = next;
    }
    const ids = events.map((event) => event.id);
    expect(new Set(ids).size, 'an id was listed twice').toBe(ids.length);
    return { ids, pages: page, events };
  }

  return { expectedIds, walk };
}

/** `YYYY-MM-DD HH:MM:SS` of an ISO UTC timestamp, computed independently of the production code. */
export function rendered(iso: string): string {
  const utc = new Date(iso).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 19)}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The `Link` header, strictly in RFC 8288 form: `<url>; rel="first"`, then `prev` and `next` when
 * present, joined by `, `, in that order.
 */
export function parseLinks(response: ApiResponse): Map<'first' | 'prev' | 'next', string> {
  const header = response.headers.get('link');
  if (header === null) throw new Error('no Link header');
  const links = new Map<'first' | 'prev' | 'next', string>();
  for (const part of header.split(', ')) {
    const match = /^<([^<>\s]+)>; rel="(first|prev|next)"$/.exec(part);
    if (match === null) throw new Error(`malformed Link element ${JSON.stringify(part)} in ${header}`);
    links.set(match[2] as 'first' | 'prev' | 'next', match[1] as string);
  }
  const order = ['first', 'prev', 'next'].filter((rel) => links.has(rel as 'first'));
  expect([...links.keys()]).toEqual(order);
  expect(links.has('first')).toBe(true);
  return links;
}

export function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}
