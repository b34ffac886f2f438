/**
 * `DynamoEventStore` against DynamoDB Local: idempotent puts, atomic attempt recording, leases, cycles
 * and listings.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoEventStore } from '../../lambdas/adapters/dynamodb/event-store';
import { uuidv7 } from '../../lambdas/domain/ids';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '../../lambdas/domain/model';
import type { EventListRequest, NewEvent } from '../../lambdas/domain/ports';
import { testIban } from '../support/delivery-harness';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let documents: DynamoDBDocumentClient;
let store: DynamoEventStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'event-store' });
  // The same marshalling as the functions' client (lambdas/adapters/aws-clients.ts).
  documents = DynamoDBDocumentClient.from(resources.dynamodb, {
    marshallOptions: { removeUndefinedValues: true },
  });
  store = new DynamoEventStore(documents, resources.tableName);
});

afterAll(async () => {
  documents?.destroy();
  await resources?.destroy();
});

function newEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  const id = overrides.id ?? uuidv7();
  const body = overrides.body ?? `{"id":"${id}","payload":{"note":"Grüße €"}}`;
  return {
    id,
    orgId: randomUUID(),
    account: testIban(),
    type: 'credit_transfer_status_change',
    triggeredAt: new Date().toISOString(),
    body,
    signature: `sha256=${'ab'.repeat(32)}`,
    webhookStatus: 'pending',
    ...overrides,
  };
}

async function stored(event: NewEvent): Promise<NewEvent> {
  const result = await store.putEvent(event);
  expect(result.created).toBe(true);
  return event;
}

function attempt(status: number, body = `answer ${status}`): DeliveryAttempt {
  return {
    deliveredAt: new Date().toISOString(),
    responseStatus: status,
    responseBody: body,
    responseTimeMs: 7,
  };
}

async function read(id: string): Promise<EventRecord> {
  const event = await store.getEvent(id, { consistent: true });
  if (!event) throw new Error(`event ${id} is not stored`);
  expect(event.webhookRetries, 'webhook_retries vs deliveries').toBe(event.deliveries.length);
  return event;
}

describe('putEvent', () => {
  it('stores an event once: the same id again returns the stored one and changes nothing', async () => {
    const event = newEvent({ expiresAt: Math.floor(Date.now() / 1000) + 86_400 });
    const first = await store.putEvent(event);
    expect(first.created).toBe(true);
    const record = await read(event.id);
    expect(record).toMatchObject({
      id: event.id,
      orgId: event.orgId,
      account: event.account,
      type: event.type,
      triggeredAt: event.triggeredAt,
      body: event.body,
      signature: event.signature,
      webhookStatus: 'pending',
      webhookRetries: 0,
      cycleBase: 0,
      deliveries: [],
    });

    const again = await store.putEvent(event);
    expect(again.created).toBe(false);
    if (again.created) return;
    expect(again.existing).toEqual(record);

    const other = await store.putEvent({
      ...event,
      body: '{"other":true}',
      type: 'other',
      orgId: randomUUID(),
    });
    expect(other.created).toBe(false);
    if (other.created) return;
    expect(other.existing).toEqual(record);
    expect(await read(event.id)).toEqual(record);
  });

  it('keeps the body byte for byte', async () => {
    const body = `{"payload":{"text":"${'ẞ€😀\\u0000'.repeat(200)}","n":1.50}}`;
    const event = await stored(newEvent({ body }));
    expect((await read(event.id)).body).toBe(body);
  });
});

describe('recordAttempt', () => {
  it('records 10 concurrent attempts: 10 retries and 10 deliveries', async () => {
    const event = await stored(newEvent());
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.recordAttempt(event.id, attempt(500, `try ${i}`), 'pending'),
      ),
    );
    for (const result of results) expect(result.webhookRetries).toBe(result.deliveries.length);
    expect(new Set(results.map((r) => r.webhookRetries))).toEqual(
      new Set(Array.from({ length: 10 }, (_, i) => i + 1)),
    );
    const record = await read(event.id);
    expect(record.webhookRetries).toBe(10);
    expect(record.deliveries).toHaveLength(10);
    expect(new Set(record.deliveries.map((d) => d.responseBody))).toEqual(
      new Set(Array.from({ length: 10 }, (_, i) => `try ${i}`)),
    );
    expect(record.webhookStatus).toBe('pending');
  });

  it('keeps the attempt fields as given', async () => {
    const event = await stored(newEvent());
    const given: DeliveryAttempt = {
      deliveredAt: '2026-11-21T12:00:00.123Z',
      responseStatus: 418,
      responseBody: 'teapot ☕',
      responseTimeMs: 42,
    };
    const result = await store.recordAttempt(event.id, given, 'pending');
    expect(result.deliveries).toEqual([given]);
    expect((await read(event.id)).deliveries).toEqual([given]);
  });

  it('records a failure after a success without downgrading the status', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event.id, attempt(200), 'success');
    const afterRetry = await store.recordAttempt(event.id, attempt(500), 'pending');
    expect(afterRetry).toMatchObject({ webhookStatus: 'success', webhookRetries: 2 });
    const afterFailed = await store.recordAttempt(event.id, attempt(503), 'failed');
    expect(afterFailed).toMatchObject({ webhookStatus: 'success', webhookRetries: 3 });
    const record = await read(event.id);
    expect(record.webhookStatus).toBe('success');
    expect(record.deliveries.map((d) => d.responseStatus)).toEqual([200, 500, 503]);
  });

  it('lets a success win over a failed event and records both', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event.id, attempt(500), 'failed');
    await store.recordAttempt(event.id, attempt(200), 'success');
    const record = await read(event.id);
    expect(record.webhookStatus).toBe('success');
    expect(record.deliveries.map((d) => d.responseStatus)).toEqual([500, 200]);
  });

  it('removes the lease with the recorded attempt', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    expect(await store.takeLease(event.id, 0, now + 60_000, now, now)).toBe(true);
    expect((await read(event.id)).leaseUntil).toBe(now + 60_000);
    await store.recordAttempt(event.id, attempt(500), 'pending');
    expect((await read(event.id)).leaseUntil).toBeUndefined();
  });

  it('refuses to record an attempt of an unknown event, and creates nothing', async () => {
    const id = uuidv7();
    await expect(store.recordAttempt(id, attempt(200), 'success')).rejects.toThrow();
    await expect(store.recordAttempt(id, attempt(500), 'pending')).rejects.toThrow();
    expect(await store.getEvent(id, { consistent: true })).toBeUndefined();
  });
});

describe('takeLease', () => {
  it('is granted once for an expected count while the lease lives, and again after it expired', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    const until = now + 60_000;
    expect(await store.takeLease(event.id, 0, until, now, now)).toBe(true);
    expect(await store.takeLease(event.id, 0, until + 1, now + 1, now + 1)).toBe(false);
    expect(await store.takeLease(event.id, 0, until, until - 1, until - 1)).toBe(false);
    // Past the lease's end another consumer may take it.
    expect(await store.takeLease(event.id, 0, until + 60_000, until + 1, until + 1)).toBe(true);
    expect((await read(event.id)).leaseUntil).toBe(until + 60_000);
  });

  it('is refused before the recorded next attempt is due, and granted once it is', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    await store.recordAttempt(event.id, attempt(500), 'pending', now + 10_000);
    expect((await read(event.id)).nextAttemptAt).toBe(now + 10_000);
    expect(await store.takeLease(event.id, 1, now + 60_000, now, now)).toBe(false);
    expect(await store.takeLease(event.id, 1, now + 60_000, now, now + 9_999)).toBe(false);
    expect(await store.takeLease(event.id, 1, now + 60_000, now, now + 10_000)).toBe(true);
  });

  it('is granted to exactly one of 10 concurrent claims', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => store.takeLease(event.id, 0, now + 60_000, now, now)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('is refused for a stale count, and granted for the current one after an attempt', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event.id, attempt(500), 'pending');
    const now = Date.now();
    expect(await store.takeLease(event.id, 0, now + 60_000, now, now)).toBe(false);
    expect(await store.takeLease(event.id, 2, now + 60_000, now, now)).toBe(false);
    expect(await store.takeLease(event.id, 1, now + 60_000, now, now)).toBe(true);
  });

  it.each(['success', 'failed'] as const)('is refused for a %s event', async (status) => {
    const event = await stored(newEvent());
    await store.recordAttempt(event.id, attempt(status === 'success' ? 200 : 500), status);
    const now = Date.now();
    expect(await store.takeLease(event.id, 1, now + 60_000, now, now)).toBe(false);
  });

  it('is refused for a skipped or unknown event', async () => {
    const event = await stored(newEvent({ webhookStatus: 'skipped' }));
    const now = Date.now();
    expect(await store.takeLease(event.id, 0, now + 60_000, now, now)).toBe(false);
    const unknown = uuidv7();
    expect(await store.takeLease(unknown, 0, now + 60_000, now, now)).toBe(false);
    expect(await store.getEvent(unknown, { consistent: true })).toBeUndefined();
  });
});

describe('settlePending', () => {
  it('settles only a pending event', async () => {
    const event = await stored(newEvent());
    expect(await store.settlePending(event.id, 'failed')).toBe(true);
    expect((await read(event.id)).webhookStatus).toBe('failed');
    expect(await store.settlePending(event.id, 'skipped')).toBe(false);
    expect((await read(event.id)).webhookStatus).toBe('failed');
  });
});

describe('startCycle', () => {
  it('starts a new cycle of a failed event of the right organization: pending, base = attempts', async () => {
    const event = await stored(newEvent());
    for (let i = 0; i < 3; i++) await store.recordAttempt(event.id, attempt(500), 'pending');
    await store.recordAttempt(event.id, attempt(500), 'failed');

    expect(await store.startCycle(event.id, randomUUID())).toBe(false);
    expect((await read(event.id)).webhookStatus).toBe('failed');

    expect(await store.startCycle(event.id, event.orgId)).toBe(true);
    const record = await read(event.id);
    expect(record).toMatchObject({ webhookStatus: 'pending', webhookRetries: 4, cycleBase: 4 });
    expect(record.deliveries).toHaveLength(4);
    expect(await store.startCycle(event.id, event.orgId)).toBe(false);
  });

  it('refuses a fourth cycle: an event keeps at most 60 attempts, so its item stays far below 400 KB', async () => {
    const event = await stored(newEvent());
    const big = { ...attempt(500), responseBody: 'x'.repeat(4096) };
    for (let cycle = 1; cycle <= 3; cycle++) {
      for (let i = 1; i < 20; i++) await store.recordAttempt(event.id, big, 'pending');
      await store.recordAttempt(event.id, big, 'failed');
      if (cycle < 3) expect(await store.startCycle(event.id, event.orgId)).toBe(true);
    }
    const record = await read(event.id);
    expect(record).toMatchObject({ webhookStatus: 'failed', webhookRetries: 60 });
    expect(record.deliveries).toHaveLength(60);
    expect(await store.startCycle(event.id, event.orgId)).toBe(false);
  });

  it('starts a new cycle of a skipped event of the right organization', async () => {
    const event = await stored(newEvent({ webhookStatus: 'skipped' }));
    expect(await store.startCycle(event.id, randomUUID())).toBe(false);
    expect(await store.startCycle(event.id, event.orgId)).toBe(true);
    expect(await read(event.id)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0, cycleBase: 0 });
  });

  it('refuses pending and delivered events', async () => {
    const pending = await stored(newEvent());
    expect(await store.startCycle(pending.id, pending.orgId)).toBe(false);
    expect((await read(pending.id)).webhookStatus).toBe('pending');

    const delivered = await stored(newEvent());
    await store.recordAttempt(delivered.id, attempt(200), 'success');
    expect(await store.startCycle(delivered.id, delivered.orgId)).toBe(false);
    expect(await read(delivered.id)).toMatchObject({ webhookStatus: 'success', cycleBase: 0 });
  });

  it('refuses an unknown event and creates nothing', async () => {
    const id = uuidv7();
    expect(await store.startCycle(id, randomUUID())).toBe(false);
    expect(await store.getEvent(id, { consistent: true })).toBeUndefined();
  });
});

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
      if (item.status === 'success') await store.recordAttempt(event.id, attempt(200), 'success');
      if (item.status === 'failed') await store.recordAttempt(event.id, attempt(500), 'failed');
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
        signature: source?.event.signature,
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

  it('lists the ids of events in given states', async () => {
    const ids = await store.listEventIdsByStatus(orgId, ['failed', 'skipped']);
    expect(ids).toEqual(expected((e) => e.status === 'failed' || e.status === 'skipped'));
    expect(await store.listEventIdsByStatus(randomUUID(), ['failed'])).toEqual([]);
  });

  it('filters by status across more than one index page of 100', async () => {
    const big = randomUUID();
    const account = testIban();
    const ids: { id: string; at: string; status: WebhookStatus }[] = [];
    for (let start = 0; start < 230; start += 10) {
      const chunk = await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
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
    expect(await store.listEventIdsByStatus(big, ['skipped'])).toEqual(skipped);
  });
});
