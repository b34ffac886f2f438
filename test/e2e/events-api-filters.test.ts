/**
 * The events API end to end: the listing's filters, alone, combined and across pages.
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
  bulkTime,
  DEBIT,
  type EventsApiFixture,
  GB,
  MS_EVENTS,
  MS_SECOND,
  NL,
  type Published,
  startEventsApiFixture,
  TRANSFER,
  UNREGISTERED,
} from '../support/events-api-fixture';
import { type EventSummary, query, rendered } from '../support/events-api-listing';
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

describe('filters', () => {
  const since = '2026-01-15 08:10:10';
  const until = '2026-01-15 09:41:40';

  it('are built on bulk times that fall on these seconds', () => {
    expect(rendered(bulkTime(15))).toBe(since);
    expect(rendered(bulkTime(151))).toBe(until);
  });

  it('filter by account, normalising the IBAN, across pages', async () => {
    const path = `/events?${query({ account: 'gb82 west 1234 5698 7654 32', per_page: '7' })}`;
    const { ids, events } = await walk(path, orgA.apiKey, 7, { account: GB });
    expect(ids).toEqual(expectedIds(eventsA, { account: GB }));
    expect(ids.length).toBeGreaterThan(60);
    for (const event of events) expect(event.account).toBe(GB);
  });

  it('filter by type', async () => {
    const { ids } = await walk(`/events?${query({ type: DEBIT, per_page: '100' })}`, orgA.apiKey, 100, {
      type: DEBIT,
    });
    expect(ids).toEqual(expectedIds(eventsA, { type: DEBIT }));
    expect(ids.length).toBeGreaterThan(80);
  });

  it('filter by every webhook_status', async () => {
    for (const status of ['success', 'pending', 'failed'] as const) {
      const response = await api.call(`/events?webhook_status=${status}`, { key: orgA.apiKey });
      expect(
        (response.body as EventSummary[]).map((event) => event.id),
        status,
      ).toEqual(expectedIds(eventsA, { status }));
      expect(expectedIds(eventsA, { status })).toHaveLength(1);
    }
    const { ids, events } = await walk('/events?webhook_status=skipped&per_page=100', orgA.apiKey, 100, {
      webhook_status: 'skipped',
    });
    expect(ids).toEqual(expectedIds(eventsA, { status: 'skipped' }));
    for (const event of events) expect(event.webhook_status).toBe('skipped');
  });

  it('filter by since and until, both inclusive, in either accepted form', async () => {
    const expected = expectedIds(eventsA, { since, until });
    const { ids } = await walk(`/events?${query({ since, until, per_page: '100' })}`, orgA.apiKey, 100, {
      since,
      until,
    });
    expect(ids).toEqual(expected);
    // Both bounds hit events exactly, so an exclusive bound would drop the first or the last.
    const timeOf = (id: string | undefined) => eventsA.find((event) => event.id === id)?.triggeredAt;
    expect(timeOf(expected[0])).toBe(bulkTime(151));
    expect(timeOf(expected.at(-1))).toBe(bulkTime(15));
    const iso = await api.call(
      `/events?${query({ since: '2026-01-15T08:10:10Z', until: '2026-01-15T09:41:40Z', per_page: '100' })}`,
      { key: orgA.apiKey },
    );
    expect((iso.body as EventSummary[]).map((event) => event.id)).toEqual(expected.slice(0, 100));
    const onlySince = await api.call(
      `/events?${query({ since: rendered(bulkTime(258)), per_page: '100' })}`,
      {
        key: orgA.apiKey,
      },
    );
    expect((onlySince.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, { since: rendered(bulkTime(258)) }),
    );
    const onlyUntil = await api.call(`/events?${query({ until: rendered(bulkTime(4)), per_page: '100' })}`, {
      key: orgA.apiKey,
    });
    expect((onlyUntil.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, { until: rendered(bulkTime(4)) }),
    );
    expect((onlyUntil.body as EventSummary[]).length).toBe(5);
  });

  it('count milliseconds inside the until second as part of it', async () => {
    // The fixture names each of these events by its time in its remittance information.
    const idAt = (iso: string) =>
      eventsA.find((event) => event.payload.remittance_information === `at ${iso}`)?.id;
    const oneSecond = await api.call(`/events?${query({ since: MS_SECOND, until: MS_SECOND })}`, {
      key: orgA.apiKey,
    });
    expect((oneSecond.body as EventSummary[]).map((event) => event.id)).toEqual([
      idAt(MS_EVENTS.inside),
      idAt(MS_EVENTS.offset),
      idAt(MS_EVENTS.start),
    ]);
    const upTo = await api.call(`/events?${query({ since: '2026-03-02 10:00:00', until: MS_SECOND })}`, {
      key: orgA.apiKey,
    });
    expect((upTo.body as EventSummary[]).map((event) => event.id)).toEqual([
      idAt(MS_EVENTS.inside),
      idAt(MS_EVENTS.offset),
      idAt(MS_EVENTS.start),
      idAt(MS_EVENTS.before),
    ]);
  });

  it('combine with each other and with paging, and every link keeps them', async () => {
    const filter = { account: GB, type: TRANSFER, status: 'skipped', since, until } as const;
    const expected = expectedIds(eventsA, filter);
    expect(expected.length).toBeGreaterThan(14);
    // Given out of canonical order, with a lower-case spaced IBAN: the links are canonical.
    const path = `/events?${query({
      until,
      webhook_status: 'skipped',
      per_page: '7',
      type: TRANSFER,
      since,
      account: 'gb82 west 1234 5698 7654 32',
    })}`;
    const keep = { account: GB, type: TRANSFER, webhook_status: 'skipped', since, until };
    const { ids } = await walk(path, orgA.apiKey, 7, keep);
    expect(ids).toEqual(expected);

    const page2 = await api.call(path.replace('per_page=7', 'per_page=7&page=2'), { key: orgA.apiKey });
    const filters =
      'account=GB82WEST12345698765432&type=credit_transfer_status_change&webhook_status=skipped' +
      '&since=2026-01-15%2008%3A10%3A10&until=2026-01-15%2009%3A41%3A40';
    expect(page2.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=7&${filters}>; rel="first", ` +
        `<${base}/events?page=1&per_page=7&${filters}>; rel="prev", ` +
        `<${base}/events?page=3&per_page=7&${filters}>; rel="next"`,
    );
  });

  it('answer a registered but foreign or an unregistered IBAN with an empty list', async () => {
    for (const iban of [UNREGISTERED, NL]) {
      const response = await api.call(`/events?account=${iban}`, { key: orgA.apiKey });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    }
  });
});
