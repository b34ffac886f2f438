/**
 * An event's routing against DynamoDB Local (issue 32): recorded once on the event's item, the first of
 * concurrent decisions winning and every decider answered with it; read back with the event, kept through
 * attempts and a new cycle; nothing written for an event that is gone.
 */
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
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

useFixture(
  () => startEventStoreFixture('event-routes'),
  (fixture) => {
    ({ store, stored, read } = fixture);
  },
);

describe("an event's routing", () => {
  it('is recorded once: of concurrent decisions the first wins, and each decider is answered with it', async () => {
    const event = await stored(newEvent());
    const decisions = [['ep_0000000000a1'], ['ep_0000000000a2', 'ep_0000000000a3'], [], ['ep_0000000000a4']];
    const answers = await Promise.all(decisions.map((routes) => store.recordRoutes(event, routes)));
    const routes = (await read(event.id)).routes;
    expect(decisions).toContainEqual(routes);
    for (const answered of answers) expect(answered).toEqual(routes);
  });

  it('records an empty routing, and keeps any routing through attempts and a new cycle', async () => {
    const nowhere = await stored(newEvent());
    expect(await store.recordRoutes(nowhere, [])).toEqual([]);
    expect(await store.recordRoutes(nowhere, ['ep_0000000000a1'])).toEqual([]);
    expect((await read(nowhere.id)).routes).toEqual([]);

    const event = await stored(newEvent());
    expect((await read(event.id)).routes).toBeUndefined();
    await store.recordRoutes(event, ['ep_0000000000a1']);
    await store.recordAttempt(event, attempt(500), 'failed');
    expect(await store.startCycle(event, event.orgId)).toBe(true);
    await store.recordAttempt(event, attempt(200), 'success');
    expect(await read(event.id)).toMatchObject({ routes: ['ep_0000000000a1'], webhookStatus: 'success' });
  });

  it('records no routing on an event that had an attempt meanwhile (it stays with the default endpoint)', async () => {
    const event = await stored(newEvent());
    await store.recordAttempt(event, attempt(500), 'pending', Date.now() + 60_000);
    expect(await store.recordRoutes(event, ['ep_0000000000a1', 'ep_0000000000a2'])).toBeUndefined();
    expect((await read(event.id)).routes).toBeUndefined();
  });

  it('writes nothing for an event that is gone', async () => {
    const gone = { ...newEvent(), sequence: 999_999 };
    expect(await store.recordRoutes(gone, ['ep_0000000000a1'])).toBeUndefined();
  });
});
