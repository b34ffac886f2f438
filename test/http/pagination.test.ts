import { describe, expect, it } from 'vitest';
import type { ValidationError } from '#domain/errors';
import type { EventPageQuery } from '#domain/ports';
import { parseAccountListQuery } from '#http/accounts/account-request';
import { accountListLink } from '#http/accounts/account-view';
import { linkHeader } from '#http/events/pagination';
import { apiEvent } from '../support/api-event';

const base = 'https://api.example.com/v1';

describe('linkHeader', () => {
  it('has only first on page 1 without more', () => {
    const query: EventPageQuery = { page: 1, perPage: 10, filters: {} };
    expect(linkHeader(base, '/events', query, false)).toBe(
      '<https://api.example.com/v1/events?page=1&per_page=10>; rel="first"',
    );
  });

  it('adds prev after page 1 and next when more follow', () => {
    const query: EventPageQuery = { page: 2, perPage: 25, filters: {} };
    expect(linkHeader(`${base}/`, '/events', query, true)).toBe(
      [
        '<https://api.example.com/v1/events?page=1&per_page=25>; rel="first"',
        '<https://api.example.com/v1/events?page=1&per_page=25>; rel="prev"',
        '<https://api.example.com/v1/events?page=3&per_page=25>; rel="next"',
      ].join(', '),
    );
  });

  it('keeps the filters in every link', () => {
    const query: EventPageQuery = {
      page: 5,
      perPage: 50,
      filters: { account: 'DE89370400440532013000', status: 'failed', since: '2026-11-01T00:00:00.000Z' },
    };
    const links = linkHeader(base, '/events', query, true).split(', ');
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(link).toContain(
        'per_page=50&account=DE89370400440532013000&webhook_status=failed&since=2026-11-01%2000%3A00%3A00',
      );
    }
    expect(links[1]).toMatch(/^<[^>]*\?page=4&[^>]*>; rel="prev"$/);
    expect(links[2]).toMatch(/^<[^>]*\?page=6&[^>]*>; rel="next"$/);
  });

  it('offers no next link past the listing depth', () => {
    const query: EventPageQuery = { page: 10, perPage: 100, filters: {} };
    expect(linkHeader('https://api.example.com/v1', '/events', query, true)).not.toContain('rel="next"');
    expect(linkHeader('https://api.example.com/v1', '/events', { ...query, page: 9 }, true)).toContain(
      'rel="next"',
    );
  });
});

describe('account listings', () => {
  const iban = 'DE89370400440532013000';
  const parse = (query: Record<string, string>) =>
    parseAccountListQuery(
      apiEvent({ query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) }),
    );
  const refused = (query: Record<string, string>) => {
    try {
      parse(query);
    } catch (error) {
      return (error as ValidationError).params[0]?.name;
    }
    return undefined;
  };

  it('read page, per_page and after with the bounds of /events', () => {
    expect(parse({})).toEqual({ page: 1, perPage: 10 });
    expect(parse({ page: '3', per_page: '100', after: 'de89 3704 0044 0532 0130 00' })).toEqual({
      page: 3,
      perPage: 100,
      after: iban,
    });
    expect(refused({ per_page: '101' })).toBe('per_page');
    expect(refused({ page: '11', per_page: '100' })).toBe('page');
    expect(refused({ page: '05' })).toBe('page');
    expect(refused({ after: 'DE00370400440532013000' })).toBe('after');
    expect(refused({ account: iban })).toBe('account');
  });

  it('link the next page, and past the depth page 1 after the last IBAN', () => {
    const page = (last: string, hasMore: boolean) => ({
      accounts: [{ iban: last, orgId: 'o', createdAt: '', updatedAt: '' }],
      hasMore,
    });
    expect(accountListLink(base, '/accounts', { page: 2, perPage: 10 }, page(iban, true))).toBe(
      [
        `<${base}/accounts?page=1&per_page=10>; rel="first"`,
        `<${base}/accounts?page=1&per_page=10>; rel="prev"`,
        `<${base}/accounts?page=3&per_page=10>; rel="next"`,
      ].join(', '),
    );
    const deep = accountListLink(
      base,
      '/accounts',
      { page: 10, perPage: 100, after: 'AT' },
      page(iban, true),
    );
    expect(deep).toContain(`<${base}/accounts?page=1&per_page=100&after=AT>; rel="first"`);
    expect(deep).toContain(`<${base}/accounts?page=1&per_page=100&after=${iban}>; rel="next"`);
    expect(accountListLink(base, '/accounts', { page: 1, perPage: 10 }, page(iban, false))).toBe(
      `<${base}/accounts?page=1&per_page=10>; rel="first"`,
    );
  });
});
