/**
 * The numbering of an account's log in `DynamoEventStore` against DynamoDB Local: the tail read, the
 * head's tickets (created, added to, lifted, concurrent), leaving hot, voids, the head and voids in the
 * readers' bounded key ranges and in erasure, the claims' batch read, and a batch stored on the table.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import { uuidv7 } from '#domain/ids';
import { storeAllInLog } from '#use-cases/events/store-in-log';
import { testIban } from '../support/delivery-queue-helpers';
import { type EventStoreFixture, newEvent, startEventStoreFixture } from '../support/event-store-fixture';
import { useFixture } from '../support/use-fixture';

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];
let documents: EventStoreFixture['documents'];
let tableName: string;

useFixture(
  () => startEventStoreFixture('log-numbering'),
  (fixture) => {
    ({ store, stored, documents, tableName } = fixture);
  },
);

const aLog = () => ({ orgId: randomUUID(), account: testIban() });

describe('the head of an account log', () => {
  it('shows in the tail read while the log is hot, and nowhere else', async () => {
    const log = aLog();
    expect(await store.readTail(log.orgId, log.account)).toEqual({ highest: 0 });
    await stored(newEvent(log));
    await stored(newEvent(log));
    expect(await store.readTail(log.orgId, log.account, { consistent: true })).toEqual({ highest: 2 });
    expect(await store.takeTicket(log.orgId, log.account, 1, 1_000)).toBeUndefined();
    expect(await store.takeTicketAbove(log.orgId, log.account, 3, 1_000, 2)).toEqual({
      first: 3,
      last: 5,
      at: 1_000,
    });
    expect(await store.readTail(log.orgId, log.account, { consistent: true })).toEqual({
      head: { handedOut: 5, at: 1_000 },
    });
    // Every reader of events keeps to the sequence keys.
    expect(await store.latestSequence(log.orgId, log.account, { consistent: true })).toBe(2);
    const page = await store.readLog(log.orgId, log.account, { afterSequence: 0, limit: 10 });
    expect(page.events.map((event) => event.sequence)).toEqual([1, 2]);
    expect(page).toMatchObject({ voids: [], more: false });
    const window = await store.readLogEntries(log.orgId, log.account, 0, 10);
    expect(window.entries.map((entry) => entry.sequence)).toEqual([1, 2]);
  });

  it('hands out disjoint consecutive ranges to concurrent tickets, never refusing one', async () => {
    const log = aLog();
    await store.takeTicketAbove(log.orgId, log.account, 1, 1, 0);
    const counts = Array.from({ length: 24 }, (_, i) => (i % 4) + 1);
    const tickets = await Promise.all(
      counts.map((count, i) => store.takeTicket(log.orgId, log.account, count, 10 + i)),
    );
    const handed = tickets.flatMap((ticket) => {
      if (ticket === undefined) throw new Error('refused');
      return Array.from({ length: ticket.last - ticket.first + 1 }, (_, k) => ticket.first + k);
    });
    const total = counts.reduce((sum, count) => sum + count, 0);
    expect(handed.sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 2));
  });

  it('lifts a head that lags below `above`, and creates one above it', async () => {
    const log = aLog();
    await store.takeTicketAbove(log.orgId, log.account, 1, 1, 3);
    expect(await store.takeTicketAbove(log.orgId, log.account, 2, 2, 10)).toEqual({
      first: 11,
      last: 12,
      at: 2,
    });
    // A head at or above `above` is added to.
    expect(await store.takeTicketAbove(log.orgId, log.account, 1, 3, 5)).toEqual({
      first: 13,
      last: 13,
      at: 3,
    });
  });

  it('is removed only while no ticket changed it', async () => {
    const log = aLog();
    await stored(newEvent(log));
    const ticket = await store.takeTicketAbove(log.orgId, log.account, 1, 5_000, 1);
    const head = { handedOut: ticket.last, at: ticket.at };
    expect(await store.leaveHot(log.orgId, log.account, { ...head, at: 4_999 })).toBe(false);
    expect(await store.leaveHot(log.orgId, log.account, { ...head, handedOut: 1 })).toBe(false);
    expect(await store.leaveHot(log.orgId, log.account, head)).toBe(true);
    expect(await store.leaveHot(log.orgId, log.account, head)).toBe(false);
    expect(await store.readTail(log.orgId, log.account, { consistent: true })).toEqual({ highest: 1 });
  });
});

describe('voids', () => {
  it('close a free sequence for good, never over an event, and read as closed sequences', async () => {
    const first = await stored(newEvent());
    const log = { orgId: first.orgId, account: first.account };
    expect(await store.voidSequence(log.orgId, log.account, 1, 7)).toBe(false);
    expect(await store.voidSequence(log.orgId, log.account, 3, 7)).toBe(true);
    expect(await store.voidSequence(log.orgId, log.account, 3, 8)).toBe(true);
    // No event can be stored at a void; the refusal names no occupant.
    expect(await store.insertEvent(newEvent({ ...log, sequence: 3 }))).toEqual({ created: false });
    await store.insertEvent(newEvent({ ...log, sequence: 4, ticketedAt: 1_234 }));
    // A sequence its publish gave back keeps its ticket's time, for the readers below it.
    expect(await store.voidSequence(log.orgId, log.account, 5, 9, 1_200)).toBe(true);
    const page = await store.readLog(log.orgId, log.account, { afterSequence: 0, limit: 10 });
    expect(page.events.map((event) => [event.sequence, event.ticketedAt])).toEqual([
      [1, undefined],
      [4, 1_234],
    ]);
    const closed = [
      { sequence: 3, ticketedAt: undefined },
      { sequence: 5, ticketedAt: 1_200 },
    ];
    expect(page.voids).toStrictEqual(closed);
    const window = await store.readLogEntries(log.orgId, log.account, 0, 10);
    expect(window.voids).toStrictEqual(closed);
    expect(window.entries.map((entry) => entry.ticketedAt)).toEqual([undefined, 1_234]);
    expect(await store.latestSequence(log.orgId, log.account, { consistent: true })).toBe(5);
    const itemAt = async (sequence: number) => {
      const out = await documents.send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: keys.log(log.orgId, log.account), sk: keys.sequence(sequence) },
        }),
      );
      return Object.keys(out.Item ?? {}).sort();
    };
    // Nothing a stream filter or an index could take for an event.
    expect(await itemAt(3)).toEqual(['pk', 'sk', 'voided_at']);
    expect(await itemAt(5)).toEqual(['pk', 'rt', 'sk', 'voided_at']);
  });

  it('go with the head when the account is erased', async () => {
    const first = await stored(newEvent());
    const log = { orgId: first.orgId, account: first.account };
    await store.voidSequence(log.orgId, log.account, 2, 1);
    await store.takeTicketAbove(log.orgId, log.account, 1, 1, 2);
    const chunk = await store.eraseAccountEvents(log.orgId, log.account);
    expect(chunk.erased).toBe(3);
    expect(await store.readTail(log.orgId, log.account, { consistent: true })).toEqual({ highest: 0 });
    expect(await store.readClaim(first.id)).toBeUndefined();
  });
});

describe('publishing on the table', () => {
  it("reads a batch's claims in one request, the missing ones absent", async () => {
    const event = await stored(newEvent());
    const found = await store.readClaims([event.id, uuidv7(), event.id]);
    expect([...found.keys()]).toEqual([event.id]);
    expect(found.get(event.id)).toMatchObject({
      claimed: false,
      existing: { sequence: 1, account: event.account },
    });
    expect((await store.readClaims([])).size).toBe(0);
  });

  it('stores a batch of one account at consecutive sequences of one ticket, each claim naming its event', async () => {
    const log = aLog();
    await stored(newEvent(log));
    const drafts = Array.from({ length: 30 }, () => {
      const { sequence: _s, body, ...draft } = newEvent(log);
      return { draft: { ...draft, sequenceFloor: 0 }, body: () => body };
    });
    const outcomes = await storeAllInLog({ events: store, now: Date.now }, drafts);
    const sequences = outcomes.map((outcome) =>
      'created' in outcome && outcome.created ? outcome.event.sequence : 0,
    );
    expect(sequences).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
    for (const [i, draft] of drafts.entries()) {
      expect(await store.readClaim(draft.draft.id)).toMatchObject({ existing: { sequence: i + 2 } });
    }
    expect(await store.readTail(log.orgId, log.account, { consistent: true })).toMatchObject({
      head: { handedOut: 31 },
    });
  });
});
