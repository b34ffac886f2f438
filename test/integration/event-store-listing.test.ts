/**
 * `DynamoEventStore` against DynamoDB Local: listings of an organization's events, filtered and paged.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { eventShard } from '#adapters/dynamodb/items';
import type { DeliveryAttempt, WebhookStatus } from '#domain/model';
import type { EventListRequest, NewEvent } from '#domain/ports';
import { testIban } from '../support/delivery-queue-helpers';
import {
  attempt,
  type EventStoreFixture,
  newEvent,
  startEventStoreFixture,
} from '../support/event-store-fixture';
import { useFixture } from '../support/use-fixture';

/** An `X-Signature` as an attempt leaves it on its event. */
const SIGNATURE = `t=1700000000,sha256=${'ab'.repeat(32)}`;
const signed = (given: DeliveryAttempt): DeliveryAttempt => ({ ...given, signature: SIGNATURE });

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];

useFixture(
  () => startEventStoreFixture('event-store-listing'),
  (fixture) => {
    ({ store, stored } = fixture);
  },
);

describe('listEvents', () => {
  const orgId = randomUUID();
  const otherOrg = randomUUID();
  const accountA = testIban();
  const accountB = testIban();
  const base = Date.parse('2026-03-01T10:00:00.000Z');
  /** Every stored event of `orgId` with its final status, in no particular order. */
  const events: { event: NewEvent; status: WebhookStatus }[] = [];

  const at = (second: number, ms = 0) => new Date(base + second * 1000 + ms).toISOString();

  beforeAll(async () => {
    const plan = Array.from({ length: 14 }, (_, i) => ({
      // Three events per second (ties), the last two in the same second with milliseconds apart.
      triggeredAt: i < 12 ? at(Math.floor(i / 3)) : at(4, i === 12 ? 1 : 999),
      account: i % 2 === 0 ? accountA : accountB,
      type: i % 3 === 0 ? 'credit_transfer.settled' : 'direct_debit_returned',
      status: (['skipped', 'success', 'failed', 'pending'] as const)[i % 4] ?? 'pending',
    }));
    for (const item of plan) {
      const event = await stored(
        newEvent({
          orgId,
          account: item.account,
          type: item.type,
          triggeredAt: item.triggeredAt,
          webhookStatus: item.status === 'skipped' ? 'skipped' : 'pending',
        }),
      );
      if (item.status === 'success') await store.recordAttempt(event, signed(attempt(200)), 'success');
      if (item.status === 'failed') await store.recordAttempt(event, signed(attempt(500)), 'failed');
      events.push({ event, status: item.status });
    }
    // Another organization, same accounts and times: never listed for `orgId`.
    for (let i = 0; i < 4; i++) {
      await stored(newEvent({ orgId: otherOrg, account: accountA, triggeredAt: at(i) }));
    }
  });

  /** Expected ids: newest first by triggered_at, ties by id descending. */
  function expected(filter: (e: { event: NewEvent; status: WebhookStatus }) => boolean = () => true) {
    return events
      .filter(filter)
      .map(({ event }) => event)
      .sort((x, y) => {
        const key = (e: NewEvent) => `${e.triggeredAt}#${e.id}`;
        return key(y) < key(x) ? -1 : key(y) > key(x) ? 1 : 0;
      })
      .map((event) => event.id);
  }

  async function list(request: Partial<EventListRequest>) {
    const page = await store.listEvents({ orgId, offset: 0, limit: 100, ...request });
    return { ids: page.events.map((e) => e.id), hasMore: page.hasMore, events: page.events };
  }

  /** Reads every page of `size` and checks the pages add up to the whole listing. */
  async function pagesOf(size: number, request: Partial<EventListRequest>): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += size) {
      const page = await list({ ...request, offset, limit: size });
      ids.push(...page.ids);
      expect(page.ids.length).toBeLessThanOrEqual(size);
      if (!page.hasMore) break;
      expect(page.ids).toHaveLength(size);
    }
    return ids;
  }

  it('lists the organization’s events newest first, ties by id, with summary fields', async () => {
    const page = await list({});
    expect(page.ids).toEqual(expected());
    expect(page.hasMore).toBe(false);
    for (const record of page.events) {
      const source = events.find(({ event }) => event.id === record.id);
      expect(record).toMatchObject({
        orgId,
        account: source?.event.account,
        type: source?.event.type,
        triggeredAt: source?.event.triggeredAt,
        // The latest attempt's X-Signature; none before the first attempt.
        signature: source?.status === 'success' || source?.status === 'failed' ? SIGNATURE : undefined,
        webhookStatus: source?.status,
        webhookRetries: source?.status === 'success' || source?.status === 'failed' ? 1 : 0,
      });
    }
  });

  it('pages by offset and limit, with hasMore exactly when more follow', async () => {
    const all = expected();
    for (const size of [1, 3, 5, 14]) expect(await pagesOf(size, {})).toEqual(all);
    expect(await list({ offset: 0, limit: all.length })).toMatchObject({ hasMore: false });
    expect(await list({ offset: 0, limit: all.length - 1 })).toMatchObject({ hasMore: true });
    expect(await list({ offset: all.length, limit: 5 })).toEqual({ ids: [], hasMore: false, events: [] });
    expect(await list({ offset: 500, limit: 5 })).toEqual({ ids: [], hasMore: false, events: [] });
    expect((await list({ offset: 4, limit: 3 })).ids).toEqual(all.slice(4, 7));
  });

  it('filters by account and by type, also across pages', async () => {
    expect((await list({ account: accountA })).ids).toEqual(
      expected(({ event }) => event.account === accountA),
    );
    expect(await pagesOf(2, { account: accountB })).toEqual(
      expected(({ event }) => event.account === accountB),
    );
    const type = 'credit_transfer.settled';
    expect(await pagesOf(2, { type })).toEqual(expected(({ event }) => event.type === type));
    expect((await list({ account: accountA, type })).ids).toEqual(
      expected(({ event }) => event.account === accountA && event.type === type),
    );
    expect((await list({ account: testIban() })).ids).toEqual([]);
  });

  it.each(['pending', 'success', 'failed', 'skipped'] as const)('filters by status %s', async (status) => {
    const wanted = expected((e) => e.status === status);
    expect(wanted.length).toBeGreaterThan(0);
    expect((await list({ status })).ids).toEqual(wanted);
    expect(await pagesOf(1, { status })).toEqual(wanted);
  });

  it('filters by since and until, both inclusive, alone and combined', async () => {
    const since = at(1);
    const until = at(3);
    expect((await list({ since })).ids).toEqual(expected(({ event }) => event.triggeredAt >= since));
    expect((await list({ until })).ids).toEqual(expected(({ event }) => event.triggeredAt <= until));
    const window = expected(({ event }) => event.triggeredAt >= since && event.triggeredAt <= until);
    expect(window).toHaveLength(9);
    expect((await list({ since, until })).ids).toEqual(window);
    expect(await pagesOf(4, { since, until })).toEqual(window);
    const exact = at(4, 1);
    expect((await list({ since: exact, until: exact })).ids).toEqual(
      expected(({ event }) => event.triggeredAt === exact),
    );
  });

  it('combines every filter', async () => {
    const since = at(1);
    const filter = (e: { event: NewEvent; status: WebhookStatus }) =>
      e.event.account === accountB && e.status === 'success' && e.event.triggeredAt >= since;
    expect((await list({ account: accountB, status: 'success', since })).ids).toEqual(expected(filter));
  });

  it('answers the ids of failed and skipped events in bounded chunks', async () => {
    const wanted = expected((e) => e.status === 'failed' || e.status === 'skipped');
    const all = await store.nextFailedOrSkipped(orgId, 100);
    expect(new Set(all.events.map((event) => event.id))).toEqual(new Set(wanted));
    expect(all.events).toHaveLength(wanted.length);
    expect(all.more).toBe(false);
    const first = await store.nextFailedOrSkipped(orgId, 1);
    expect(first.events).toHaveLength(1);
    expect(first.more).toBe(true);
    expect(await store.nextFailedOrSkipped(randomUUID(), 10)).toEqual({ events: [], more: false });
  });

  it('filters by status across more than one index page of 100', async () => {
    const big = randomUUID();
    // One account per concurrent publish: ten publishes of one log at once contend for its sequences (up
    // to ten rounds each), which only slows the seeding of what is an organization-wide listing.
    const accounts = Array.from({ length: 10 }, () => testIban());
    const ids: { id: string; at: string; status: WebhookStatus }[] = [];
    for (let start = 0; start < 230; start += 10) {
      const chunk = await Promise.all(
        accounts.map(async (account, j) => {
          const i = start + j;
          const status: WebhookStatus = i % 5 === 0 ? 'skipped' : 'pending';
          const event = await stored(
            newEvent({ orgId: big, account, triggeredAt: at(i), webhookStatus: status }),
          );
          return { id: event.id, at: event.triggeredAt, status };
        }),
      );
      ids.push(...chunk);
    }
    const skipped = ids
      .filter((e) => e.status === 'skipped')
      .sort((x, y) => (x.at < y.at ? 1 : -1))
      .map((e) => e.id);
    expect(skipped).toHaveLength(46);
    const request = { orgId: big, status: 'skipped' as const };
    const page = await store.listEvents({ ...request, offset: 18, limit: 10 });
    expect(page.events.map((e) => e.id)).toEqual(skipped.slice(18, 28));
    expect(page.hasMore).toBe(true);
    const tail = await store.listEvents({ ...request, offset: 40, limit: 10 });
    expect(tail.events.map((e) => e.id)).toEqual(skipped.slice(40));
    expect(tail.hasMore).toBe(false);
    const next = await store.nextFailedOrSkipped(big, 100);
    expect({ ids: next.events.map((event) => event.id), more: next.more }).toEqual({
      ids: skipped,
      more: false,
    });
  });
});

describe('the write-sharded organization index', () => {
  it('spreads an organization’s entries over its shards and lists them merged in one order, page by page', async () => {
    const orgId = randomUUID();
    const at = (second: number) => new Date(Date.UTC(2026, 0, 2) + second * 1000).toISOString();
    const events: NewEvent[] = [];
    // Out of order on purpose: the merge orders by triggered_at, then id, across every shard.
    for (const second of [7, 3, 9, 1, 12, 5, 0, 11, 2, 8, 4, 10, 6, 13, 15, 14]) {
      events.push(await stored(newEvent({ orgId, triggeredAt: at(second) })));
    }
    const shards = new Set(events.map((event) => eventShard(event.id)));
    expect(shards.size).toBeGreaterThan(4);
    const expected = [...events].sort((a, b) => (a.triggeredAt < b.triggeredAt ? 1 : -1)).map((e) => e.id);
    const pages: string[] = [];
    for (let offset = 0; offset < events.length; offset += 5) {
      const page = await store.listEvents({ orgId, offset, limit: 5 });
      pages.push(...page.events.map((event) => event.id));
      expect(page.hasMore).toBe(offset + 5 < events.length);
    }
    expect(pages).toEqual(expected);
    // The operator's cursor pages walk the same order, each page going on after the last entry examined.
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.pageEventIdsByStatus(orgId, ['pending'], cursor);
      walked.push(...page.events.map((event) => event.id));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(walked).toEqual(expected);
  });
});
