/**
 * `DynamoEventStore` against DynamoDB Local: leases, settling a pending event and new delivery cycles.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import { uuidv7 } from '#domain/ids';
import type { EventRef } from '#domain/model';
import { SIGNING_KEY_ID_PREFIX } from '#domain/signing/signing-keys';
import { TOKEN_ID_PREFIX } from '#domain/signing/webhook-token';
import { answerBesideUrl, RESPONSE_BODY_LIMIT_BYTES } from '#domain/truncate';
import { MAX_WEBHOOK_URL_LENGTH } from '#domain/webhook-url';
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
let read: EventStoreFixture['read'];
let documents: EventStoreFixture['documents'];
let tableName: string;

useFixture(
  () => startEventStoreFixture('event-store-leases'),
  (fixture) => {
    ({ store, stored, read, documents, tableName } = fixture);
  },
);

/** Makes the item look stored before cycles were counted: no `new_cycles`, the given `cycle_base`. */
async function asOlderItem(event: EventRef, cycleBase: number): Promise<void> {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.eventAt(event),
      UpdateExpression: 'SET cycle_base = :base REMOVE new_cycles',
      ExpressionAttributeValues: { ':base': cycleBase },
    }),
  );
}

describe('bringForward', () => {
  it('makes the organization’s pending event due now unless a lease lives; then one lease is granted', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    await store.recordAttempt(event, attempt(500), 'pending', now + 3_600_000);
    expect(await store.bringForward(event, randomUUID(), now)).toBe(false);
    expect(await store.bringForward(event, event.orgId, now)).toBe(true);
    expect((await read(event.id)).nextAttemptAt).toBe(now);
    expect(
      await store.takeLease(event, {
        expectedRetries: 1,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(true);
    // A consumer holds the lease: an attempt is under way and cannot be brought forward.
    expect(await store.bringForward(event, event.orgId, now + 1)).toBe(false);
    await store.recordAttempt(event, attempt(200), 'success');
    expect(await store.bringForward(event, event.orgId, now + 2)).toBe(false);
  });
});

describe('takeLease', () => {
  it('is granted once for an expected count while the lease lives, and again after it expired', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    const until = now + 60_000;
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: until,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(true);
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: until + 1,
        nowEpochMs: now + 1,
        dueByEpochMs: now + 1,
      }),
    ).toBe(false);
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: until,
        nowEpochMs: until - 1,
        dueByEpochMs: until - 1,
      }),
    ).toBe(false);
    // Past the lease's end another consumer may take it.
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: until + 60_000,
        nowEpochMs: until + 1,
        dueByEpochMs: until + 1,
      }),
    ).toBe(true);
    expect((await read(event.id)).leaseUntil).toBe(until + 60_000);
  });

  it('is refused before the recorded next attempt is due, and granted once it is', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    await store.recordAttempt(event, attempt(500), 'pending', now + 10_000);
    expect((await read(event.id)).nextAttemptAt).toBe(now + 10_000);
    expect(
      await store.takeLease(event, {
        expectedRetries: 1,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(false);
    expect(
      await store.takeLease(event, {
        expectedRetries: 1,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now + 9_999,
      }),
    ).toBe(false);
    expect(
      await store.takeLease(event, {
        expectedRetries: 1,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now + 10_000,
      }),
    ).toBe(true);
  });

  it('is granted to exactly one of 10 concurrent claims', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    const claims = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.takeLease(event, {
          expectedRetries: 0,
          untilEpochMs: now + 60_000,
          nowEpochMs: now,
          dueByEpochMs: now,
        }),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('is refused for a stale count, and granted for the current one after an attempt', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event, attempt(500), 'pending');
    const now = Date.now();
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(false);
    expect(
      await store.takeLease(event, {
        expectedRetries: 2,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(false);
    expect(
      await store.takeLease(event, {
        expectedRetries: 1,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(true);
  });

  it.each(['success', 'failed'] as const)('is refused for a %s event', async (status) => {
    const event = await stored(newEvent());
    await store.recordAttempt(event, attempt(status === 'success' ? 200 : 500), status);
    const now = Date.now();
    expect(
      await store.takeLease(event, {
        expectedRetries: 1,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(false);
  });

  it('is refused for a skipped or unknown event', async () => {
    const event = await stored(newEvent({ webhookStatus: 'skipped' }));
    const now = Date.now();
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(false);
    const unknown = uuidv7();
    expect(
      await store.takeLease(
        { ...event, id: unknown, sequence: 2 },
        { expectedRetries: 0, untilEpochMs: now + 60_000, nowEpochMs: now, dueByEpochMs: now },
      ),
    ).toBe(false);
    expect(await store.getEvent(unknown, { consistent: true })).toBeUndefined();
  });
});

describe('settlePending', () => {
  it('settles only a pending event', async () => {
    const event = await stored(newEvent());
    expect(await store.settlePending(event, 'failed')).toBe(true);
    expect((await read(event.id)).webhookStatus).toBe('failed');
    expect(await store.settlePending(event, 'skipped')).toBe(false);
    expect((await read(event.id)).webhookStatus).toBe('failed');
  });
});

describe('startCycle', () => {
  it('starts a new cycle of a failed event of the right organization: pending, base = attempts', async () => {
    const event = await stored(newEvent());
    for (let i = 0; i < 3; i++) await store.recordAttempt(event, attempt(500), 'pending');
    await store.recordAttempt(event, attempt(500), 'failed');

    expect(await store.startCycle(event, randomUUID())).toBe(false);
    expect((await read(event.id)).webhookStatus).toBe('failed');

    expect(await store.startCycle(event, event.orgId)).toBe(true);
    const record = await read(event.id);
    expect(record).toMatchObject({ webhookStatus: 'pending', webhookRetries: 4, cycleBase: 4 });
    expect(record.deliveries).toHaveLength(4);
    expect(await store.startCycle(event, event.orgId)).toBe(false);
  });

  it('refuses a fourth cycle: an event keeps at most 60 attempts, so its item stays far below 400 KB', async () => {
    const event = await stored(newEvent());
    const big = { ...attempt(500), responseBody: 'x'.repeat(4096) };
    for (let cycle = 1; cycle <= 3; cycle++) {
      for (let i = 1; i < 20; i++) await store.recordAttempt(event, big, 'pending');
      await store.recordAttempt(event, big, 'failed');
      if (cycle < 3) expect(await store.startCycle(event, event.orgId)).toBe(true);
    }
    const record = await read(event.id);
    expect(record).toMatchObject({ webhookStatus: 'failed', webhookRetries: 60 });
    expect(record.deliveries).toHaveLength(60);
    expect((await store.nextFailedOrSkipped(event.orgId, 10)).events.map((e) => e.id)).toEqual([event.id]);
    expect(await store.startCycle({ ...event, sequence: 2 }, event.orgId)).toBe(false);
    expect(await store.startCycle(event, randomUUID())).toBe(false);
    expect((await store.nextFailedOrSkipped(event.orgId, 10)).events.map((e) => e.id)).toEqual([event.id]);
    expect(await store.startCycle(event, event.orgId)).toBe(false);
    // No cycle left: it leaves the status indexes (so a reset goes on past it) and stays failed.
    expect(await store.nextFailedOrSkipped(event.orgId, 10)).toEqual({ events: [], more: false });
    expect(await read(event.id)).toMatchObject({ webhookStatus: 'failed', webhookRetries: 60 });
  });

  it('counts cycles, not attempts: a delivered event gets two more cycles of one attempt, no fourth', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event, attempt(200), 'success');
    expect((await read(event.id)).cycles).toBe(1);
    // The first cycle is the absent attribute: publishing and a first-try delivery store nothing for it.
    const item = await documents.send(new GetCommand({ TableName: tableName, Key: keys.eventAt(event) }));
    expect(item.Item).not.toHaveProperty('new_cycles');
    for (let cycle = 2; cycle <= 3; cycle++) {
      expect(await store.startCycle(event, event.orgId)).toBe(true);
      expect(await read(event.id)).toMatchObject({ webhookStatus: 'pending', cycles: cycle });
      await store.recordAttempt(event, attempt(200), 'success');
    }
    expect(await store.startCycle(event, event.orgId)).toBe(false);
    expect(await read(event.id)).toMatchObject({ webhookStatus: 'success', webhookRetries: 3, cycles: 3 });
  });

  it('replaces a cycle that sent nothing uncounted, so a skipped event keeps its cycles', async () => {
    const event = await stored(newEvent({ webhookStatus: 'skipped' }));
    for (let i = 0; i < 4; i++) {
      expect(await store.startCycle(event, event.orgId)).toBe(true);
      expect(await store.settlePending(event, 'skipped')).toBe(true);
    }
    expect(await read(event.id)).toMatchObject({ webhookRetries: 0, cycles: 1 });
    // Still one index entry, not one per restart; then delivered in three counted cycles.
    expect((await store.nextFailedOrSkipped(event.orgId, 10)).events.map((e) => e.id)).toEqual([event.id]);
    expect(await store.startCycle(event, randomUUID())).toBe(false);
    expect(await store.startCycle(event, event.orgId)).toBe(true);
    await store.recordAttempt(event, attempt(200), 'success');
    for (let cycle = 2; cycle <= 3; cycle++) {
      expect(await store.startCycle(event, event.orgId)).toBe(true);
      await store.recordAttempt(event, attempt(200), 'success');
    }
    expect(await store.startCycle(event, event.orgId)).toBe(false);
    expect(await read(event.id)).toMatchObject({ webhookStatus: 'success', webhookRetries: 3, cycles: 3 });
  });

  it('reads an item stored before cycles were counted from its cycle base, never granting more', async () => {
    // Base 0: no cycle after an attempt yet, so two more.
    const fresh = await stored(newEvent());
    await store.recordAttempt(fresh, attempt(500), 'failed');
    await asOlderItem(fresh, 0);
    expect(await read(fresh.id)).toMatchObject({ cycles: 1, cycleBase: 0 });
    expect(await store.startCycle(fresh, fresh.orgId)).toBe(true);
    expect(await read(fresh.id)).toMatchObject({ cycles: 2, cycleBase: 1 });

    // Base 1: at most one cycle before the current one, so one more, then none.
    const once = await stored(newEvent());
    await store.recordAttempt(once, attempt(200), 'success');
    await store.recordAttempt(once, attempt(200), 'success');
    await asOlderItem(once, 1);
    expect((await read(once.id)).cycles).toBe(2);
    expect(await store.startCycle(once, once.orgId)).toBe(true);
    expect(await read(once.id)).toMatchObject({ cycles: 3, cycleBase: 2 });
    await store.recordAttempt(once, attempt(200), 'success');
    expect(await store.startCycle(once, once.orgId)).toBe(false);

    // Base 20 or more: it may have had up to 21 cycles; it has none left and leaves the status indexes.
    const many = await stored(newEvent());
    for (let i = 0; i < 20; i++) await store.recordAttempt(many, attempt(500), 'pending');
    await store.recordAttempt(many, attempt(500), 'failed');
    await asOlderItem(many, 20);
    expect((await read(many.id)).cycles).toBe(3);
    expect((await store.nextFailedOrSkipped(many.orgId, 10)).events.map((e) => e.id)).toEqual([many.id]);
    expect(await store.startCycle(many, many.orgId)).toBe(false);
    expect(await store.nextFailedOrSkipped(many.orgId, 10)).toEqual({ events: [], more: false });
    expect(await read(many.id)).toMatchObject({ webhookStatus: 'failed', webhookRetries: 21, cycleBase: 20 });
  });

  it('holds 60 attempts of the largest kind beside a 64 KiB payload that does not compress', async () => {
    // The worst case the limits allow: an incompressible 64 KiB body, the longest URL, full answers
    // beside it, two tokens and two Ed25519 keys (both overlaps at once) and a signature on every attempt.
    // DynamoDB Local enforces 400 KB.
    const event = await stored(
      newEvent({
        body: randomBytes(48 * 1024)
          .toString('base64')
          .slice(0, 65_536),
      }),
    );
    const url = `https://hooks.example.com/${'p'.repeat(MAX_WEBHOOK_URL_LENGTH - 26)}`;
    const largest = {
      ...attempt(500, answerBesideUrl('x'.repeat(RESPONSE_BODY_LIMIT_BYTES), url)),
      url,
      signingKeys: [
        `${TOKEN_ID_PREFIX}0123456789abcdef`,
        `${TOKEN_ID_PREFIX}fedcba9876543210`,
        `${SIGNING_KEY_ID_PREFIX}0123456789abcdef`,
        `${SIGNING_KEY_ID_PREFIX}fedcba9876543210`,
      ],
      signature: `t=1790000000,sha256=${'a'.repeat(64)},sha256=${'b'.repeat(64)}`,
    };
    for (let cycle = 1; cycle <= 3; cycle++) {
      for (let i = 1; i < 20; i++) await store.recordAttempt(event, largest, 'pending');
      await store.recordAttempt(event, largest, 'failed');
      if (cycle < 3) expect(await store.startCycle(event, event.orgId)).toBe(true);
    }
    const record = await read(event.id);
    expect(record).toMatchObject({ webhookStatus: 'failed', webhookRetries: 60 });
    expect(record.deliveries.every((d) => d.url === url)).toBe(true);
  });

  it('starts a new cycle of a skipped event of the right organization', async () => {
    const event = await stored(newEvent({ webhookStatus: 'skipped' }));
    expect(await store.startCycle(event, randomUUID())).toBe(false);
    expect(await store.startCycle(event, event.orgId)).toBe(true);
    expect(await read(event.id)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0, cycleBase: 0 });
  });

  it('refuses a pending event; starts a new cycle of a delivered one (a replay)', async () => {
    const pending = await stored(newEvent());
    expect(await store.startCycle(pending, pending.orgId)).toBe(false);
    expect((await read(pending.id)).webhookStatus).toBe('pending');

    const delivered = await stored(newEvent());
    await store.recordAttempt(delivered, attempt(200), 'success');
    expect(await store.startCycle(delivered, randomUUID())).toBe(false);
    expect(await store.startCycle(delivered, delivered.orgId)).toBe(true);
    expect(await read(delivered.id)).toMatchObject({
      webhookStatus: 'pending',
      cycleBase: 1,
      webhookRetries: 1,
    });
  });

  it('refuses an unknown event and creates nothing', async () => {
    const id = uuidv7();
    expect(
      await store.startCycle({ id, orgId: randomUUID(), account: testIban(), sequence: 1 }, randomUUID()),
    ).toBe(false);
    expect(await store.getEvent(id, { consistent: true })).toBeUndefined();
  });
});
