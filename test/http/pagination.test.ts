import { describe, expect, it } from 'vitest';
import type { EventPageQuery } from '#domain/ports';
import { linkHeader } from '#http/events/pagination';

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
