/**
 * The events API end to end: paging through the listing, and its `Link` headers.
 *
 * Each file of the events API end-to-end tests starts its own local runtime with the real handlers on the
 * real emulators, seeded by `test/support/events-api-fixture.ts`, and calls it over HTTP; every answer
 * is checked against the OpenAPI document the API serves (see `connectApi`), so these files are also the
 * OpenAPI conformance test.
 */
import { describe, expect, it } from 'vitest';
import type { SeededTenant } from '#local/tenant-seed';
import type { ApiClient } from '../support/e2e-http';
import {
  DE,
  DEBIT,
  type EventsApiFixture,
  GB,
  type Published,
  startEventsApiFixture,
  TRANSFER,
} from '../support/events-api-fixture';
import { type EventSummary, type Filter, parseLinks, query } from '../support/events-api-listing';
import { useFixture } from '../support/use-fixture';

let api: ApiClient;
let base: string;
let orgA: SeededTenant;
let eventsA: readonly Published[];
let walk: EventsApiFixture['walk'];
let expectedIds: EventsApiFixture['expectedIds'];

useFixture(
  () => startEventsApiFixture({ bulk: true }),
  (fixture) => {
    ({ api, base, orgA, eventsA, walk, expectedIds } = fixture);
  },
);

describe('paging', () => {
  it('walks every event exactly once, newest first with ties by id, per_page 7 and 100', async () => {
    const expected = expectedIds(eventsA);
    // The data really has ties: many neighbours share a triggeredAt.
    const byId = new Map(eventsA.map((event) => [event.id, event.triggeredAt]));
    const ties = expected.filter(
      (id, index) => index > 0 && byId.get(id) === byId.get(expected[index - 1] ?? ''),
    );
    expect(ties.length).toBeGreaterThan(50);

    for (const perPage of [7, 100]) {
      const { ids, pages, events } = await walk(`/events?per_page=${perPage}`, orgA.apiKey, perPage, {});
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.ceil(eventsA.length / perPage));
      // Non-increasing by the rendered time too.
      for (let index = 1; index < events.length; index++) {
        expect((events[index - 1]?.triggered_at ?? '') >= (events[index]?.triggered_at ?? '')).toBe(true);
      }
    }
  });

  it('defaults to 10 per page and links exactly in RFC 8288 form', async () => {
    const first = await api.call('/events', { key: orgA.apiKey });
    expect((first.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA).slice(0, 10),
    );
    expect(first.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=10>; rel="first", <${base}/events?page=2&per_page=10>; rel="next"`,
    );
    const third = await api.call('/events?page=3', { key: orgA.apiKey });
    expect((third.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA).slice(20, 30),
    );
    expect(third.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=10>; rel="first", <${base}/events?page=2&per_page=10>; rel="prev", ` +
        `<${base}/events?page=4&per_page=10>; rel="next"`,
    );
  });

  it('has no next link on a last page that is exactly full', async () => {
    // A listing whose size has a divisor up to 100, so its last page is full and only the store's
    // look-ahead can tell that nothing follows.
    const candidates: Filter[] = [{}, { type: DEBIT }, { type: TRANSFER }, { account: GB }, { account: DE }];
    const fit = candidates
      .map((filter) => {
        const total = expectedIds(eventsA, filter).length;
        const sizes = Array.from({ length: 99 }, (_, i) => i + 2).filter((n) => n < total && total % n === 0);
        return { filter, total, perPage: sizes.at(-1) };
      })
      .find((candidate) => candidate.perPage !== undefined);
    if (fit?.perPage === undefined) throw new Error('no listing with a full last page');
    const { filter, total, perPage } = fit;
    const lastPage = total / perPage;
    const filters = query({
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.account ? { account: filter.account } : {}),
    });
    const last = await api.call(`/events?page=${lastPage}&per_page=${perPage}&${filters}`, {
      key: orgA.apiKey,
    });
    expect(last.status, last.text).toBe(200);
    expect((last.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, filter).slice(-perPage),
    );
    expect([...parseLinks(last).keys()]).toEqual(['first', 'prev']);
    const after = await api.call(`/events?page=${lastPage + 1}&per_page=${perPage}&${filters}`, {
      key: orgA.apiKey,
    });
    expect(after.body).toEqual([]);
  });

  it('answers a page beyond the end with 200 [] and no next link', async () => {
    const beyond = await api.call('/events?page=100&per_page=10', { key: orgA.apiKey });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=10>; rel="first", <${base}/events?page=99&per_page=10>; rel="prev"`,
    );
    const justAfter = await api.call(`/events?page=${Math.ceil(eventsA.length / 100) + 1}&per_page=100`, {
      key: orgA.apiKey,
    });
    expect(justAfter.body).toEqual([]);
  });

  it('refuses a page past the listing depth with a 400 that points to since and until', async () => {
    const deep = await api.call('/events?page=9007199254740991&per_page=10', { key: orgA.apiKey });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({
      status: 400,
      invalid_params: [{ name: 'page', reason: expect.stringMatching(/at most 1000.*until.*since/) }],
    });
  });
});
