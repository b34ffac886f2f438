import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LIST_DEPTH } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { WEBHOOK_STATUSES } from '#domain/model';
import type { EventPageQuery } from '#domain/ports';
import { LIST_QUERY_PARAMS, parseListQuery, toQueryString } from '#http/events/list-query';
import { catchError, invalidParams } from '../domain/catch-error';

/** API Gateway's multi-value form of single values. */
const q = (params: Record<string, string>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [name, [value]]));

/** Parses a query string the way API Gateway fills `multiValueQueryStringParameters`. */
function multiFromQueryString(text: string): Record<string, string[]> {
  const multi: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) multi[name] = [...(multi[name] ?? []), value];
  return multi;
}

describe('parseListQuery', () => {
  it('defaults to page 1 of 10 without filters', () => {
    const expected: EventPageQuery = { page: 1, perPage: 10, filters: {} };
    expect(parseListQuery(null)).toEqual(expected);
    expect(parseListQuery({})).toEqual(expected);
    expect(parseListQuery({ page: undefined, per_page: [] })).toEqual(expected);
  });

  it('reads every parameter', () => {
    const query = parseListQuery(
      q({
        page: '3',
        per_page: '100',
        account: 'de89 3704 0044 0532 0130 00',
        type: 'credit_transfer_status_change',
        webhook_status: 'failed',
        since: '2026-11-01 00:00:00',
        until: '2026-11-30T23:59:59Z',
      }),
    );
    expect(query).toEqual({
      page: 3,
      perPage: 100,
      filters: {
        account: 'DE89370400440532013000',
        type: 'credit_transfer_status_change',
        status: 'failed',
        since: '2026-11-01T00:00:00.000Z',
        until: '2026-11-30T23:59:59.000Z',
      },
    });
  });

  it.each(['0', '101', 'abc', '1.5', '-1', '', '+5', '1e2', '05', ' 5', '5 ', '0x10', '１'])(
    'rejects per_page=%j with the allowed range',
    (value) => {
      expect(invalidParams(() => parseListQuery(q({ per_page: value })))).toEqual([
        { name: 'per_page', reason: 'must be an integer from 1 to 100' },
      ]);
    },
  );

  it.each(['0', '-1', '1.0', '', '01', '9007199254740992', '99999999999999999999'])(
    'rejects page=%j',
    (value) => {
      expect(invalidParams(() => parseListQuery(q({ page: value })))).toEqual([
        { name: 'page', reason: 'must be an integer of 1 or more' },
      ]);
    },
  );

  it('accepts the bounds', () => {
    expect(parseListQuery(q({ per_page: '1', page: String(MAX_LIST_DEPTH) }))).toMatchObject({
      perPage: 1,
      page: MAX_LIST_DEPTH,
    });
    expect(parseListQuery(q({ per_page: '100', page: String(MAX_LIST_DEPTH / 100) }))).toMatchObject({
      perPage: 100,
      page: MAX_LIST_DEPTH / 100,
    });
  });

  it.each([
    ['11', '100'],
    ['1001', '1'],
    ['9007199254740991', '10'],
  ])('refuses page %s × per_page %s past the listing depth, pointing to since and until', (page, perPage) => {
    const [param] = invalidParams(() => parseListQuery(q({ page, per_page: perPage }))) as {
      name: string;
      reason: string;
    }[];
    expect(param?.name).toBe('page');
    expect(param?.reason).toMatch(/page × per_page must be at most 1000; .*until.*since/);
  });

  it('rejects a repeated parameter', () => {
    expect(invalidParams(() => parseListQuery({ page: ['1', '2'] }))).toEqual([
      { name: 'page', reason: 'given more than once' },
    ]);
    expect(invalidParams(() => parseListQuery({ type: ['a', 'a'] }))).toEqual([
      { name: 'type', reason: 'given more than once' },
    ]);
  });

  it('rejects unknown parameters first, naming the allowed ones', () => {
    expect(invalidParams(() => parseListQuery(q({ page: 'x', status: 'failed', Page: '1' })))).toEqual([
      { name: 'Page', reason: `unknown parameter; allowed: ${LIST_QUERY_PARAMS.join(', ')}` },
    ]);
  });

  it.each([
    ['account', 'DE00370400440532013000'],
    ['account', ''],
    ['type', 'Credit'],
    ['webhook_status', 'SUCCESS'],
    ['webhook_status', ''],
    ['since', '2026-02-30 00:00:00'],
    ['until', 'today'],
  ])('rejects %s=%j', (name, value) => {
    const error = catchError(() => parseListQuery(q({ [name]: value })));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params[0]?.name).toBe(name);
  });

  it('names the statuses in the error', () => {
    expect(invalidParams(() => parseListQuery(q({ webhook_status: 'done' })))).toEqual([
      { name: 'webhook_status', reason: 'must be one of pending, success, failed, skipped' },
    ]);
  });

  it('requires since ≤ until, allowing equality', () => {
    const at = '2026-11-21 12:00:00';
    expect(parseListQuery(q({ since: at, until: at })).filters.since).toBe('2026-11-21T12:00:00.000Z');
    expect(invalidParams(() => parseListQuery(q({ since: '2026-11-21 12:00:01', until: at })))).toEqual([
      { name: 'until', reason: 'must not be earlier than since' },
    ]);
  });
});

describe('toQueryString', () => {
  it('writes the canonical form', () => {
    const query = parseListQuery(
      q({ until: '2026-11-30 23:59:59', account: 'DE89370400440532013000', per_page: '5', page: '2' }),
    );
    expect(toQueryString(query)).toBe(
      'page=2&per_page=5&account=DE89370400440532013000&until=2026-11-30%2023%3A59%3A59',
    );
  });

  it('is read back by parseListQuery to the same query', () => {
    const second = fc.integer({ min: 0, max: 253_402_300_799 }).map((s) => new Date(s * 1000).toISOString());
    const arbitrary = fc.record(
      {
        page: fc.integer({ min: 1, max: 10 }),
        perPage: fc.integer({ min: 1, max: 100 }),
        account: fc.constantFrom('DE89370400440532013000', 'GB82WEST12345698765432'),
        type: fc.constantFrom('credit_transfer_status_change', 'a.b_c'),
        status: fc.constantFrom(...WEBHOOK_STATUSES),
        times: fc.tuple(second, second).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
      },
      { requiredKeys: ['page', 'perPage'] },
    );
    fc.assert(
      fc.property(arbitrary, ({ page, perPage, times, ...rest }) => {
        const query: EventPageQuery = {
          page,
          perPage,
          filters: { ...rest, ...(times === undefined ? {} : { since: times[0], until: times[1] }) },
        };
        expect(parseListQuery(multiFromQueryString(toQueryString(query)))).toEqual(query);
      }),
    );
  });
});
