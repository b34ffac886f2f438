/**
 * `DynamoEventStore` against DynamoDB Local: what one listing or reset request reads stays bounded and
 * does not grow with the organization's events; the sparse status indexes follow every status write.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import { MAX_ITEMS_CHECKED, OPERATOR_PAGES_PER_REQUEST, RESET_CHUNK } from '#config/limits';
import { ValidationError } from '#domain/errors';
import type { DeliveryQueue, NewEvent } from '#domain/ports';
import { indexStatuses, resetWebhooks } from '#use-cases/events/reset-webhooks';
import { testIban } from '../support/delivery-queue-helpers';
import {
  attempt,
  type EventStoreFixture,
  newEvent,
  startEventStoreFixture,
} from '../support/event-store-fixture';
import { useFixture } from '../support/use-fixture';

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];
let documents: EventStoreFixture['documents'];
let tableName: string;
/** Capacity units per operation since the last {@link measure}. */
let units: Record<string, number> = {};

useFixture(
  () =>
    startEventStoreFixture('event-store-bounds', (operation, consumed) => {
      units[operation] = (units[operation] ?? 0) + consumed;
    }),
  (fixture) => {
    ({ store, stored, documents, tableName } = fixture);
  },
);

async function measure<T>(run: () => Promise<T>): Promise<{ result: T; units: Record<string, number> }> {
  units = {};
  const result = await run();
  return { result, units: { ...units } };
}

const base = Date.parse('2026-05-01T00:00:00.000Z');
const at = (second: number) => new Date(base + second * 1000).toISOString();

/** Stores `count` events of `orgId` from second `from` on, ten at a time, each settled to `status`. */
async function storeMany(
  orgId: string,
  from: number,
  count: number,
  status: 'success' | 'failed' | 'skipped' | 'pending',
): Promise<NewEvent[]> {
  const events: NewEvent[] = [];
  for (let start = 0; start < count; start += 10) {
    const chunk = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, async (_, j) => {
        const event = await stored(
          newEvent({
            orgId,
            triggeredAt: at(from + start + j),
            webhookStatus: status === 'skipped' ? 'skipped' : 'pending',
          }),
        );
        if (status === 'success') await store.recordAttempt(event, attempt(200), 'success');
        if (status === 'failed') await store.recordAttempt(event, attempt(500), 'failed');
        return event;
      }),
    );
    events.push(...chunk);
  }
  return events;
}

describe('bounded listings', () => {
  it('lists failed events at the same cost however many delivered events the organization has', async () => {
    const orgId = randomUUID();
    const failed = await storeMany(orgId, 0, 3, 'failed');
    await storeMany(orgId, 10, 100, 'success');
    const before = await measure(() => store.listEvents({ orgId, offset: 0, limit: 10, status: 'failed' }));
    await storeMany(orgId, 200, 300, 'success');
    const after = await measure(() => store.listEvents({ orgId, offset: 0, limit: 10, status: 'failed' }));
    const newestFirst = failed.map((event) => event.id).reverse();
    expect(before.result.events.map((event) => event.id)).toEqual(newestFirst);
    expect(after.result.events.map((event) => event.id)).toEqual(newestFirst);
    expect(after.units).toEqual(before.units);
  });

  it('moves events in and out of the status indexes with their status', async () => {
    const orgId = randomUUID();
    const [event] = await storeMany(orgId, 0, 1, 'pending');
    if (!event) throw new Error('no event');
    const ids = async (status: 'failed' | 'skipped') =>
      (await store.listEvents({ orgId, offset: 0, limit: 10, status })).events.map((e) => e.id);
    await store.recordAttempt(event, attempt(500), 'pending');
    expect(await ids('failed')).toEqual([]);
    await store.recordAttempt(event, attempt(500), 'failed');
    expect(await ids('failed')).toEqual([event.id]);
    expect(await store.startCycle(event, orgId)).toBe(true);
    expect(await ids('failed')).toEqual([]);
    await store.recordAttempt(event, attempt(500), 'failed');
    await store.recordAttempt(event, attempt(200), 'success');
    expect(await ids('failed')).toEqual([]);
    const [other] = await storeMany(orgId, 5, 1, 'pending');
    if (!other) throw new Error('no event');
    await store.settlePending(other, 'skipped');
    expect(await ids('skipped')).toEqual([other.id]);
  });

  it('answers 400 on webhook_status=pending when the page needs more than the items one request checks', async () => {
    const orgId = randomUUID();
    await storeMany(orgId, 0, 1, 'pending');
    await storeMany(orgId, 10, MAX_ITEMS_CHECKED + 10, 'success');
    const error = await store.listEvents({ orgId, offset: 0, limit: 10, status: 'pending' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params[0]).toMatchObject({
      name: 'webhook_status',
      reason: expect.stringContaining('narrow the time window with since and until'),
    });
    const window = await store.listEvents({
      orgId,
      offset: 0,
      limit: 10,
      status: 'pending',
      until: at(5),
    });
    expect(window.events).toHaveLength(1);
  });

  it('stops a webhook_status=pending listing of a sparse account at the index entries one request reads', async () => {
    const orgId = randomUUID();
    const account = testIban();
    const [match] = await Promise.all([
      stored(newEvent({ orgId, account, triggeredAt: at(0), webhookStatus: 'pending' })),
      storeMany(orgId, 10, 60, 'pending'),
    ]);
    // Counts the index entries DynamoDB evaluated, whether or not the account filter kept them.
    let scanned = 0;
    const client = {
      send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        const out = (await documents.send(command)) as { ScannedCount?: number };
        scanned += out.ScannedCount ?? 0;
        return out;
      },
    } as unknown as DynamoDBDocumentClient;
    const entries = 30;
    const queries = new DynamoEventStore(client, tableName, undefined, {
      indexEntries: entries,
      itemsChecked: MAX_ITEMS_CHECKED,
    });
    const request = { orgId, offset: 0, limit: 10, status: 'pending' as const, account };
    const error = await queries.listEvents(request).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params[0]).toMatchObject({
      name: 'webhook_status',
      reason: expect.stringContaining('narrow the time window with since and until'),
    });
    expect(scanned).toBe(entries);
    const window = await queries.listEvents({ ...request, until: at(5) });
    expect(window.events.map((event) => event.id)).toEqual([match.id]);
  });
});

describe('chunked reset', () => {
  it('queues at most one chunk per request, says whether more remain, and walks through all', async () => {
    const orgId = randomUUID();
    const failed = await storeMany(orgId, 0, RESET_CHUNK + 20, 'failed');
    const skipped = await storeMany(orgId, 500, 15, 'skipped');
    await storeMany(orgId, 1000, 30, 'success');
    const sent: string[] = [];
    const queue: DeliveryQueue = {
      enqueue: async (events) => {
        sent.push(...events.map((event) => event.id));
      },
      postpone: async () => undefined,
    };
    const first = await measure(() => resetWebhooks({ events: store, queue }, orgId));
    expect(first.result.queued).toHaveLength(RESET_CHUNK);
    expect(first.result.more).toBe(true);
    expect(first.units.StartCycle).toBeLessThanOrEqual(RESET_CHUNK * 2);
    const second = await resetWebhooks({ events: store, queue }, orgId);
    expect(second).toMatchObject({ more: false });
    expect(second.queued).toHaveLength(35);
    expect(await resetWebhooks({ events: store, queue }, orgId)).toEqual({ queued: [], more: false });
    expect(new Set(sent)).toEqual(new Set([...failed, ...skipped].map((event) => event.id)));
    expect(sent).toHaveLength(RESET_CHUNK + 35);
  });

  it("recovery's walk takes one account's failed and skipped events since a time, and nothing else", async () => {
    const orgId = randomUUID();
    const account = testIban();
    const skipped = (second: number, of = account) =>
      stored(newEvent({ orgId, account: of, triggeredAt: at(second), webhookStatus: 'skipped' }));
    await skipped(0);
    const wanted = [await skipped(100), await skipped(101)];
    const otherAccount = testIban();
    for (let second = 102; second < 107; second++) await skipped(second, otherAccount);
    const failed = await stored(newEvent({ orgId, account, triggeredAt: at(108) }));
    await store.recordAttempt(failed, attempt(500), 'failed');
    const delivered = await stored(newEvent({ orgId, account, triggeredAt: at(109) }));
    await store.recordAttempt(delivered, attempt(200), 'success');
    const filter = { account, since: at(50) };
    const chunk = await store.recoveryChunk(orgId, filter, 10);
    // The failed index first, then the skipped one, each oldest first.
    const idsOf = (refs: readonly { id: string }[]) => refs.map((ref) => ref.id);
    expect(idsOf(chunk.events)).toEqual([failed.id, ...idsOf(wanted)]);
    expect(chunk.cursor).toBeUndefined();
    const small = await store.recoveryChunk(orgId, filter, 1);
    expect(idsOf(small.events)).toEqual([failed.id]);
    const rest = await store.recoveryChunk(orgId, filter, 10, small.cursor);
    expect(idsOf(rest.events)).toEqual(idsOf(wanted));
    expect(rest.cursor).toBeUndefined();
    await expect(store.recoveryChunk(orgId, filter, 10, 'bm90IGEgY3Vyc29y')).rejects.toThrow(ValidationError);
  });

  it("recovery's walk examines at most the read bound per step and goes on past it", async () => {
    const orgId = randomUUID();
    const account = testIban();
    const others = testIban();
    // 12 skipped entries, 4 of the account: a bound of 5 needs three steps, each past the last.
    const ours: string[] = [];
    for (let second = 0; second < 12; second++) {
      const mine = second % 3 === 0;
      const event = await stored(
        newEvent({
          orgId,
          account: mine ? account : others,
          triggeredAt: at(second),
          webhookStatus: 'skipped',
        }),
      );
      if (mine) ours.push(event.id);
    }
    const bounded = new DynamoEventStore(documents, tableName, undefined, {
      indexEntries: 5,
      itemsChecked: 500,
    });
    const found: string[] = [];
    let cursor: string | undefined;
    let steps = 0;
    do {
      const step = await bounded.recoveryChunk(orgId, { account, since: at(0) }, 100, cursor);
      found.push(...step.events.map((event) => event.id));
      cursor = step.cursor;
      steps++;
    } while (cursor !== undefined && steps < 10);
    expect(found).toEqual(ours);
    expect(steps).toBe(3);
  });
});

describe('a delivery summary', () => {
  it("reads the account's latest events' attempts with one Query and one batch read", async () => {
    const orgId = randomUUID();
    const account = testIban();
    const ours: NewEvent[] = [];
    for (let second = 0; second < 5; second++) {
      const event = await stored(newEvent({ orgId, account, triggeredAt: at(200 + second) }));
      await store.recordAttempt(event, attempt(second === 4 ? 500 : 200), 'pending', Date.now());
      ours.push(event);
      await stored(newEvent({ orgId, account: testIban(), triggeredAt: at(200 + second) }));
    }
    const latest = await measure(() => store.recentAttempts(orgId, account, at(0), 3));
    expect(Object.keys(latest.units).sort()).toEqual(['BatchGetItem', 'Query']);
    expect(latest.result).toMatchObject({ events: 3, complete: false });
    expect(latest.result.attempts.map((a) => a.responseStatus).sort()).toEqual([200, 200, 500]);
    const all = await store.recentAttempts(orgId, account, at(0), 100);
    expect(all).toMatchObject({ events: 5, complete: true });
    expect(await store.recentAttempts(orgId, account, at(300), 100)).toEqual({
      attempts: [],
      events: 0,
      complete: true,
    });
  });
});

describe('index-statuses (upgrade)', () => {
  it('puts failed and skipped events recorded before the indexes into them, once', async () => {
    const orgId = randomUUID();
    const [failed] = await storeMany(orgId, 0, 1, 'failed');
    const [skipped] = await storeMany(orgId, 5, 1, 'skipped');
    await storeMany(orgId, 10, 3, 'success');
    if (!failed || !skipped) throw new Error('no events');
    // As an older version stored them: status set, no index attribute.
    for (const [event, attribute] of [
      [failed, 'failed_org'],
      [skipped, 'skipped_org'],
    ] as const) {
      await documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.eventAt(event),
          UpdateExpression: `REMOVE ${attribute}`,
        }),
      );
    }
    const listed = async (status: 'failed' | 'skipped') =>
      (await store.listEvents({ orgId, offset: 0, limit: 10, status })).events.map((event) => event.id);
    expect(await listed('failed')).toEqual([]);
    expect(await indexStatuses(store, orgId)).toEqual({ indexed: 2, more: false });
    expect(await listed('failed')).toEqual([failed.id]);
    expect(await listed('skipped')).toEqual([skipped.id]);
    expect(await indexStatuses(store, orgId)).toEqual({ indexed: 0, more: false });
  });

  it('examines a bounded number of events per call and goes on from the cursor it returns', async () => {
    const orgId = randomUUID();
    // The oldest event, listed last: beyond what one call examines.
    const [failed] = await storeMany(orgId, 0, 1, 'failed');
    await storeMany(orgId, 1, OPERATOR_PAGES_PER_REQUEST * 100 + 10, 'success');
    if (!failed) throw new Error('no event');
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.eventAt(failed),
        UpdateExpression: 'REMOVE failed_org',
      }),
    );
    const first = await indexStatuses(store, orgId);
    expect(first).toMatchObject({ indexed: 0, more: true });
    expect(await indexStatuses(store, orgId, first.cursor)).toEqual({ indexed: 1, more: false });
    await expect(indexStatuses(store, orgId, 'not-a-cursor')).rejects.toThrow(/cursor/);
  });
});
