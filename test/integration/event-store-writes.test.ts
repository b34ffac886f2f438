/**
 * `DynamoEventStore` against DynamoDB Local: idempotent puts and atomic attempt recording. Leases and
 * cycles are in `event-store-leases.test.ts`, listings in `event-store-listing.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { uuidv7 } from '#domain/ids';
import type { DeliveryAttempt } from '#domain/model';
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
  () => startEventStoreFixture('event-store-writes'),
  (fixture) => {
    ({ store, stored, read, documents, tableName } = fixture);
  },
);

describe('putEvent', () => {
  it('stores an event once: the same id again returns the stored one and changes nothing', async () => {
    const event = newEvent({ expiresAt: Math.floor(Date.now() / 1000) + 86_400 });
    const first = await store.putEvent(event);
    expect(first.created).toBe(true);
    const record = await read(event.id);
    expect(record.signature).toBeUndefined();
    expect(record).toMatchObject({
      id: event.id,
      orgId: event.orgId,
      account: event.account,
      type: event.type,
      triggeredAt: event.triggeredAt,
      body: event.body,
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

  it('keeps where each attempt went and with which tokens; the latest X-Signature becomes the event’s', async () => {
    const event = await stored(newEvent());
    const sent = (n: number): DeliveryAttempt => ({
      ...attempt(500),
      deliveredAt: `2026-11-21T12:00:0${n}.000Z`,
      url: `https://hooks.example.com/${n}`,
      signingKeys: ['whk_0123456789abcdef', 'whk_fedcba9876543210'],
      signature: `t=${1_700_000_000 + n},sha256=${'ab'.repeat(32)}`,
    });
    await store.recordAttempt(event.id, sent(1), 'pending');
    // A refused URL: nothing was sent or signed, so the event keeps the signature it had.
    const refused = { ...attempt(0), url: 'http://10.0.0.1/', signingKeys: [] };
    await store.recordAttempt(event.id, refused, 'pending');
    expect((await read(event.id)).signature).toBe(sent(1).signature);
    await store.recordAttempt(event.id, sent(2), 'pending');
    const record = await read(event.id);
    expect(record.signature).toBe(sent(2).signature);
    const { signature: _first, ...first } = sent(1);
    const { signature: _second, ...second } = sent(2);
    expect(record.deliveries).toEqual([first, refused, second]);
  });

  it('shows an older event’s publish-time signature until its next attempt replaces it', async () => {
    const event = await stored(newEvent());
    const legacy = `sha256=${'cd'.repeat(32)}`;
    // As an event published before attempts signed themselves, after one attempt then.
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: `EVENT#${event.id}`, sk: 'EVENT' },
        UpdateExpression: 'SET signature = :s',
        ExpressionAttributeValues: { ':s': legacy },
      }),
    );
    expect((await read(event.id)).signature).toBeUndefined();
    await store.recordAttempt(event.id, attempt(500), 'pending');
    expect((await read(event.id)).signature).toBe(legacy);
    const header = `t=1763728507,sha256=${'ef'.repeat(32)},sha256=${'01'.repeat(32)}`;
    await store.recordAttempt(event.id, { ...attempt(200), signature: header }, 'success');
    expect((await read(event.id)).signature).toBe(header);
    const raw = await documents.send(
      new GetCommand({ TableName: tableName, Key: { pk: `EVENT#${event.id}`, sk: 'EVENT' } }),
    );
    expect(raw.Item?.signature).toBeUndefined();
    // Packed: 4 bytes of timestamp and 32 per signature, not 156 characters.
    expect(raw.Item?.sig).toHaveLength(68);
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
