/**
 * The order gate over a log of large items in DynamoDB Local: a Query ends its page at 1 MB processed
 * whatever its `Limit` and projection, so the gate's read of the log is cut, says so, and the gate reads
 * on rather than taking the cut for the end of the log (which would pass unsettled events as holes).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { passGate } from '#delivery/order';
import { defaultEndpoint } from '#domain/endpoints/endpoint';
import type { Account } from '#domain/model';
import { testIban } from '../support/delivery-queue-helpers';
import { type EventStoreFixture, newEvent, startEventStoreFixture } from '../support/event-store-fixture';
import { useFixture } from '../support/use-fixture';

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];

useFixture(
  () => startEventStoreFixture('order-gate-pages'),
  (fixture) => {
    ({ store, stored } = fixture);
  },
);

/** Stores `count` events on one log (a quiet log: no tickets), each item about 250 KB. */
async function largeLog(count: number): Promise<{ orgId: string; account: string }> {
  const log = { orgId: randomUUID(), account: testIban() };
  for (let n = 1; n <= count; n++) {
    // Random bytes do not deflate: the stored item stays as large as the payload.
    const blob = randomBytes(250_000).toString('base64');
    const id = randomUUID();
    await stored(newEvent({ ...log, id, body: `{"id":"${id}","payload":{"blob":"${blob}"}}` }));
  }
  return log;
}

describe('the order gate over a log of large items', () => {
  it('says a read its page ended is cut', async () => {
    const log = await largeLog(8);
    const read = await store.readLogEntries(log.orgId, log.account, 0, 8);
    expect(read.entries.length).toBeLessThan(8);
    expect(read.cut).toBe(true);
    const whole = await store.readLogEntries(log.orgId, log.account, 0, 2);
    expect(whole).toMatchObject({ cut: false });
    expect(whole.entries).toHaveLength(2);
  });

  it('waits for an unsettled event past a cut read, and moves the watermark only below it', async () => {
    const log = await largeLog(10);
    const at = async (sequence: number) => {
      const [entry] = (await store.readLogEntries(log.orgId, log.account, sequence - 1, 1)).entries;
      if (!entry) throw new Error(`no event at ${sequence}`);
      return entry;
    };
    for (let n = 1; n <= 6; n++) expect(await store.settlePending(await at(n), 'skipped')).toBe(true);
    const event = await store.readEvent(await at(10));
    if (!event) throw new Error('no event at 10');
    const account: Account = {
      iban: log.account,
      orgId: log.orgId,
      deliveryOrder: 'ordered',
      settledThrough: 0,
      createdAt: '2026-11-20T09:00:00.000Z',
      updatedAt: '2026-11-20T09:00:00.000Z',
    };
    const moves: number[] = [];
    const deps = {
      events: store,
      directory: {
        advanceSettledThrough: async (_iban: string, _org: string, { to }: { to: number }) => {
          moves.push(to);
          return true;
        },
      },
      queue: { enqueue: async () => undefined },
      // Nothing here is routed: the gate reads no delivery.
      deliveries: { readDelivery: () => Promise.reject(new Error('no delivery read expected')) },
      now: Date.now,
    };
    // 7–9 are pending past the first page: event 10 waits for 7, and the watermark stops at 6.
    expect(await passGate(deps, defaultEndpoint(account), event, 2)).toMatchObject({
      go: false,
      reason: 'ordered: waits for sequence 7 to settle',
    });
    expect(moves).toEqual([6]);
  });
});
