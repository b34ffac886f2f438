/**
 * `DynamoEventStore` against DynamoDB Local: idempotent puts and atomic attempt recording. Leases and
 * cycles are in `event-store-leases.test.ts`, listings in `event-store-listing.test.ts`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import { uuidv7 } from '#domain/ids';
import type { DeliveryAttempt } from '#domain/model';
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
  () => startEventStoreFixture('event-store-writes'),
  (fixture) => {
    ({ store, stored, read, documents, tableName } = fixture);
  },
);

describe('claims and the account log', () => {
  it('stores an event once at its sequence: the id and the sequence are each taken once', async () => {
    const event = await stored(newEvent({ expiresAt: Math.floor(Date.now() / 1000) + 86_400 }));
    const record = await read(event.id);
    expect(record.signature).toBeUndefined();
    expect(record).toMatchObject({
      id: event.id,
      orgId: event.orgId,
      account: event.account,
      sequence: 1,
      type: event.type,
      triggeredAt: event.triggeredAt,
      body: event.body,
      webhookStatus: 'pending',
      webhookRetries: 0,
      cycleBase: 0,
      deliveries: [],
    });
    expect(await store.readEvent(event, { consistent: true })).toEqual(record);
    expect(await store.latestSequence(event.orgId, event.account, { consistent: true })).toBe(1);

    const claim = { ...event, sequence: 2, owner: randomUUID(), claimedAt: Date.now() };
    const again = await store.claimId(claim);
    expect(again).toMatchObject({ claimed: false, existing: { id: event.id, sequence: 1 } });
    const other = { ...event, id: uuidv7(), body: '{"other":true}' };
    expect(await store.insertEvent(other)).toEqual({ created: false, occupant: event.id });
    expect(await read(event.id)).toEqual(record);
    expect(await store.readLog(event.orgId, event.account, { afterSequence: 0, limit: 10 })).toEqual({
      events: [record],
      voids: [],
      more: false,
      nextAfterSequence: 1,
    });
  });

  it("keeps the version of the event's type as `tv`, read back by the event and by the listing", async () => {
    const versioned = await stored(newEvent({ typeVersion: 3 }));
    const unversioned = await stored(newEvent({ orgId: versioned.orgId, typeVersion: undefined }));
    const raw = await documents.send(new GetCommand({ TableName: tableName, Key: keys.eventAt(versioned) }));
    expect(raw.Item?.tv).toBe(3);
    expect((await read(versioned.id)).typeVersion).toBe(3);
    expect((await read(unversioned.id)).typeVersion).toBeUndefined();
    const page = await store.listEvents({ orgId: versioned.orgId, offset: 0, limit: 10 });
    expect(new Map(page.events.map((event) => [event.id, event.typeVersion]))).toEqual(
      new Map([
        [versioned.id, 3],
        [unversioned.id, undefined],
      ]),
    );
  });

  it('moves a claim only for its owner, and reads an event only where its claim points', async () => {
    const event = newEvent();
    const claim = { ...event, owner: 'first', claimedAt: 1 };
    expect(await store.claimId(claim)).toEqual({ claimed: true });
    // A claim without its event (a crashed publish) names no event.
    expect(await store.getEvent(event.id, { consistent: true })).toBeUndefined();
    expect(await store.moveClaim('someone else', { ...claim, owner: 'second', sequence: 2 })).toBe(false);
    expect(await store.moveClaim('first', { ...claim, owner: 'second', sequence: 2 })).toBe(true);
    expect(await store.readClaim(event.id)).toMatchObject({ existing: { owner: 'second', sequence: 2 } });
    expect(await store.insertEvent({ ...event, sequence: 2 })).toMatchObject({ created: true });
    expect((await read(event.id)).sequence).toBe(2);
  });

  it('answers a claim put the client retried after its answer was lost as claimed: the claim found is its own', async () => {
    const event = newEvent();
    const claim = { ...event, owner: randomUUID(), claimedAt: Date.now() };
    let lost = 0;
    // Below the client's retries: the put lands, then its answer is lost once (a timed-out connection).
    documents.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        const body = String((args.request as { body?: unknown }).body ?? '');
        if (lost === 0 && body.includes(`EVENT#${event.id}`)) {
          lost++;
          throw Object.assign(new Error('the answer was lost'), { name: 'TimeoutError' });
        }
        return out;
      },
      { step: 'finalizeRequest', name: 'loseClaimAnswer' },
    );
    try {
      expect(await store.claimId(claim)).toEqual({ claimed: true });
    } finally {
      documents.middlewareStack.remove('loseClaimAnswer');
    }
    expect(lost).toBe(1);
    // Another publish of the id (another owner) still finds the claim taken.
    expect(await store.claimId({ ...claim, owner: randomUUID() })).toMatchObject({
      claimed: false,
      existing: { owner: claim.owner, sequence: claim.sequence },
    });
  });

  it('reads the log after a sequence, ascending, at most the limit', async () => {
    const first = await stored(newEvent());
    const more = [];
    for (let i = 0; i < 4; i++)
      more.push(await stored(newEvent({ orgId: first.orgId, account: first.account })));
    const after = await store.readLog(first.orgId, first.account, { afterSequence: 1, limit: 3 });
    expect(after.events.map((event) => event.sequence)).toEqual([2, 3, 4]);
    expect(after.events.map((event) => event.id)).toEqual(more.slice(0, 3).map((event) => event.id));
    expect(after).toMatchObject({ more: true, nextAfterSequence: 4 });
    const rest = await store.readLog(first.orgId, first.account, { afterSequence: 4, limit: 3 });
    expect(rest).toMatchObject({ more: false, nextAfterSequence: 5 });
    const none = { events: [], voids: [], more: false, nextAfterSequence: 5 };
    expect(await store.readLog(first.orgId, first.account, { afterSequence: 5, limit: 3 })).toEqual(none);
    const foreign = await store.readLog(randomUUID(), first.account, { afterSequence: 0, limit: 3 });
    expect(foreign).toEqual({ events: [], voids: [], more: false, nextAfterSequence: 0 });
    // The order gate's read: the same events, their delivery state only.
    await store.markWaiting({ ...first, sequence: 1 }, 1_000);
    expect((await store.readLogEntries(first.orgId, first.account, 0, 2)).entries).toEqual([
      {
        id: first.id,
        orgId: first.orgId,
        account: first.account,
        sequence: 1,
        webhookStatus: 'pending',
        leaseUntil: undefined,
        nextAttemptAt: 1_000,
      },
      {
        id: more[0]?.id,
        orgId: first.orgId,
        account: first.account,
        sequence: 2,
        webhookStatus: 'pending',
        leaseUntil: undefined,
        nextAttemptAt: undefined,
      },
    ]);
  });

  it('reads past the 1 MB pages of DynamoDB up to the limit, and stops early at a byte budget', async () => {
    // Random base64 barely deflates: six ~330 KB bodies make about 1.5 MB, more than one Query page.
    const large = () => `{"payload":{"blob":"${randomBytes(250_000).toString('base64')}"}}`;
    const first = await stored(newEvent({ body: large() }));
    for (let i = 0; i < 5; i++)
      await stored(newEvent({ orgId: first.orgId, account: first.account, body: large() }));
    const log = { orgId: first.orgId, account: first.account };
    const all = await store.readLog(log.orgId, log.account, { afterSequence: 0, limit: 10 });
    expect(all.events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(all).toMatchObject({ more: false, nextAfterSequence: 6 });
    const limited = await store.readLog(log.orgId, log.account, { afterSequence: 1, limit: 4 });
    expect(limited.events.map((event) => event.sequence)).toEqual([2, 3, 4, 5]);
    expect(limited).toMatchObject({ more: true, nextAfterSequence: 5 });
    const budget = { afterSequence: 0, limit: 10, maxBodyBytes: 700_000 };
    const capped = await store.readLog(log.orgId, log.account, budget);
    expect(capped.events.map((event) => event.sequence)).toEqual([1, 2]);
    expect(capped).toMatchObject({ more: true, nextAfterSequence: 2 });
    // One event is always taken, even over the budget, so a reader never stalls.
    const tiny = await store.readLog(log.orgId, log.account, {
      ...budget,
      afterSequence: 4,
      maxBodyBytes: 1,
    });
    expect(tiny.events.map((event) => event.sequence)).toEqual([5]);
    expect(tiny).toMatchObject({ more: true, nextAfterSequence: 5 });
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
      Array.from({ length: 10 }, (_, i) => store.recordAttempt(event, attempt(500, `try ${i}`), 'pending')),
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
    const result = await store.recordAttempt(event, given, 'pending');
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
    await store.recordAttempt(event, sent(1), 'pending');
    // A refused URL: nothing was sent or signed, so the event keeps the signature it had.
    const refused = { ...attempt(0), url: 'http://10.0.0.1/', signingKeys: [] };
    await store.recordAttempt(event, refused, 'pending');
    expect((await read(event.id)).signature).toBe(sent(1).signature);
    await store.recordAttempt(event, sent(2), 'pending');
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
        Key: keys.eventAt(event),
        UpdateExpression: 'SET signature = :s',
        ExpressionAttributeValues: { ':s': legacy },
      }),
    );
    expect((await read(event.id)).signature).toBeUndefined();
    await store.recordAttempt(event, attempt(500), 'pending');
    expect((await read(event.id)).signature).toBe(legacy);
    const header = `t=1763728507,sha256=${'ef'.repeat(32)},sha256=${'01'.repeat(32)}`;
    await store.recordAttempt(event, { ...attempt(200), signature: header }, 'success');
    expect((await read(event.id)).signature).toBe(header);
    const raw = await documents.send(new GetCommand({ TableName: tableName, Key: keys.eventAt(event) }));
    expect(raw.Item?.signature).toBeUndefined();
    // Packed: 4 bytes of timestamp and 32 per signature, not 156 characters.
    expect(raw.Item?.sig).toHaveLength(68);
  });

  it('records a failure after a success without downgrading the status', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event, attempt(200), 'success');
    const afterRetry = await store.recordAttempt(event, attempt(500), 'pending');
    expect(afterRetry).toMatchObject({ webhookStatus: 'success', webhookRetries: 2 });
    const afterFailed = await store.recordAttempt(event, attempt(503), 'failed');
    expect(afterFailed).toMatchObject({ webhookStatus: 'success', webhookRetries: 3 });
    const record = await read(event.id);
    expect(record.webhookStatus).toBe('success');
    expect(record.deliveries.map((d) => d.responseStatus)).toEqual([200, 500, 503]);
  });

  it('lets a success win over a failed event and records both', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event, attempt(500), 'failed');
    await store.recordAttempt(event, attempt(200), 'success');
    const record = await read(event.id);
    expect(record.webhookStatus).toBe('success');
    expect(record.deliveries.map((d) => d.responseStatus)).toEqual([500, 200]);
  });

  it('removes the lease with the recorded attempt', async () => {
    const event = await stored(newEvent());
    const now = Date.now();
    expect(
      await store.takeLease(event, {
        expectedRetries: 0,
        untilEpochMs: now + 60_000,
        nowEpochMs: now,
        dueByEpochMs: now,
      }),
    ).toBe(true);
    expect((await read(event.id)).leaseUntil).toBe(now + 60_000);
    await store.recordAttempt(event, attempt(500), 'pending');
    expect((await read(event.id)).leaseUntil).toBeUndefined();
  });

  it('refuses to record an attempt of an unknown event, and creates nothing', async () => {
    const id = uuidv7();
    const nowhere = { id, orgId: randomUUID(), account: testIban(), sequence: 1 };
    await expect(store.recordAttempt(nowhere, attempt(200), 'success')).rejects.toThrow();
    await expect(store.recordAttempt(nowhere, attempt(500), 'pending')).rejects.toThrow();
    expect(await store.getEvent(id, { consistent: true })).toBeUndefined();
  });
});

describe('the upgrade to account logs', () => {
  it('moves an old-layout event into its log and rewrites its item into the claim, in one transaction', async () => {
    const event = newEvent({
      body: `{"id":"x","type":"t","account":"A","triggered_at":"t","payload":{"n":1},"_links":{}}`,
    });
    // As an older version stored it: the whole event at EVENT#<id>, delivered.
    const { eventItem } = await import('#adapters/dynamodb/events/event-items');
    const item = {
      ...eventItem(event),
      ...keys.event(event.id),
      // Before account logs, an organization's index entries were one unsharded partition.
      gsi1pk: keys.orgEvents(event.orgId),
      webhook_status: 'success',
      webhook_retries: 1,
      deliveries: [{ at: new Date().toISOString(), status: 200, body: 'ok', ms: 5 }],
    };
    await documents.send(new PutCommand({ TableName: tableName, Item: item }));
    const legacy = await store.getEvent(event.id, { consistent: true });
    expect(legacy).toMatchObject({ id: event.id, webhookStatus: 'success' });
    expect(legacy?.sequence).toBeUndefined();
    const { migrateLegacyEvents } = await import('#use-cases/events/migrate-events');
    // No account item: the floor is 0 (floors are the use-case tests' concern).
    const deps = { events: store, directory: { getAccount: async () => undefined } };
    expect(await migrateLegacyEvents(deps, event.orgId)).toEqual({ migrated: 1, pending: 0, more: false });
    const moved = await read(event.id);
    expect(moved).toMatchObject({ sequence: 1, webhookStatus: 'success', webhookRetries: 1 });
    expect(JSON.parse(moved.body)).toMatchObject({ sequence: 1, payload: { n: 1 } });
    const raw = await documents.send(new GetCommand({ TableName: tableName, Key: keys.event(event.id) }));
    expect(raw.Item).toMatchObject({ seq: 1, org_id: event.orgId, account: event.account });
    expect(raw.Item?.body).toBeUndefined();
    expect(await migrateLegacyEvents(deps, event.orgId)).toEqual({ migrated: 0, pending: 0, more: false });
    const log = await store.readLog(event.orgId, event.account, { afterSequence: 0, limit: 10 });
    expect(log.events.map((e) => e.id)).toEqual([event.id]);
  });

  it('reports an old-layout event that turned pending during its move as pending, and moves it once settled', async () => {
    const event = newEvent({
      body: `{"id":"x","type":"t","account":"A","triggered_at":"t","payload":{"n":2},"_links":{}}`,
    });
    const { eventItem } = await import('#adapters/dynamodb/events/event-items');
    const item = { ...eventItem(event), ...keys.event(event.id), gsi1pk: keys.orgEvents(event.orgId) };
    await documents.send(
      new PutCommand({ TableName: tableName, Item: { ...item, webhook_status: 'success' } }),
    );
    const status = (to: string) =>
      documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.event(event.id),
          UpdateExpression: 'SET webhook_status = :s',
          ExpressionAttributeValues: { ':s': to },
        }),
      );
    // A redelivery starts a new cycle between the move's read of the old item and its transaction.
    let raced = false;
    const racing = {
      send: async (command: unknown) => {
        const out = await documents.send(command as GetCommand);
        if (!raced && command instanceof GetCommand) {
          raced = true;
          await status('pending');
        }
        return out;
      },
    } as unknown as typeof documents;
    const { DynamoEventStore } = await import('#adapters/dynamodb/events/event-store');
    const moving = new DynamoEventStore(racing, tableName);
    expect(await moving.moveToLog(event, 1)).toBe('pending');
    expect((await store.getEvent(event.id, { consistent: true }))?.sequence).toBeUndefined();
    await status('success');
    expect(await moving.moveToLog(event, 1)).toBe('moved');
    expect((await read(event.id)).sequence).toBe(1);
  });
});
