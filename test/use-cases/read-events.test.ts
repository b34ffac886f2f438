import { beforeEach, describe, expect, it } from 'vitest';
import { LOG_READ_MAX_BODY_BYTES } from '#config/limits';
import { NotFoundError, ValidationError } from '#domain/errors';
import type { EventListRequest, NewEvent } from '#domain/ports';
import { parseEventId } from '#http/events/event-request';
import { getEvent, listEvents, readFeed } from '#use-cases/events/read-events';
import { apiEvent } from '../support/api-event';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const ORG = 'org-a';
const OTHER_ORG = 'org-b';
const IBAN = 'DE89370400440532013000';

let store: InMemoryEventStore;

/** Stores an event of `orgId` triggered at `triggeredAt`; the id's last digits order ties. */
async function seed(n: number, triggeredAt: string, orgId = ORG): Promise<string> {
  const id = `0193a7c4-1d2e-7f00-8a00-${String(n).padStart(12, '0')}`;
  const event: NewEvent = {
    id,
    orgId,
    account: IBAN,
    sequence: (await store.latestSequence(orgId, IBAN)) + 1,
    type: 'credit_transfer_status_change',
    triggeredAt,
    body: '{}',
    webhookStatus: 'pending',
  };
  await store.insertEvent(event);
  return id;
}

beforeEach(() => {
  store = new InMemoryEventStore();
});

describe('listEvents', () => {
  it('asks the store for the window of the requested page and passes the filters through', async () => {
    const requests: EventListRequest[] = [];
    const spy = Object.assign(new InMemoryEventStore(), {
      listEvents: async (request: EventListRequest) => {
        requests.push(request);
        return { events: [], hasMore: false };
      },
    });
    await listEvents(spy, ORG, {
      page: 3,
      perPage: 25,
      filters: { account: IBAN, type: 't', status: 'failed', since: '2026-11-01T00:00:00.000Z' },
    });
    expect(requests).toEqual([
      {
        orgId: ORG,
        offset: 50,
        limit: 25,
        account: IBAN,
        type: 't',
        status: 'failed',
        since: '2026-11-01T00:00:00.000Z',
        until: undefined,
      },
    ]);
  });

  it('pages newest first and says whether more follow', async () => {
    const old = await seed(1, '2026-11-20T10:00:00.000Z');
    const middle = await seed(2, '2026-11-20T11:00:00.000Z');
    const newest = await seed(3, '2026-11-20T12:00:00.000Z');
    await seed(4, '2026-11-20T13:00:00.000Z', OTHER_ORG);
    const first = await listEvents(store, ORG, { page: 1, perPage: 2, filters: {} });
    expect(first.events.map((event) => event.id)).toEqual([newest, middle]);
    expect(first.hasMore).toBe(true);
    const second = await listEvents(store, ORG, { page: 2, perPage: 2, filters: {} });
    expect(second.events.map((event) => event.id)).toEqual([old]);
    expect(second.hasMore).toBe(false);
    expect((await listEvents(store, ORG, { page: 3, perPage: 2, filters: {} })).events).toEqual([]);
  });

  it('reads `until` as a whole second: events with milliseconds inside it are included', async () => {
    const inside = await seed(1, '2026-11-20T12:00:00.999Z');
    await seed(2, '2026-11-20T12:00:01.000Z');
    const page = await listEvents(store, ORG, {
      page: 1,
      perPage: 10,
      filters: { until: '2026-11-20T12:00:00.000Z' },
    });
    expect(page.events.map((event) => event.id)).toEqual([inside]);
  });
});

describe('getEvent', () => {
  it("returns the organization's event", async () => {
    const id = await seed(1, '2026-11-20T12:00:00.000Z');
    expect(await getEvent(store, ORG, id)).toMatchObject({ id, orgId: ORG });
  });

  it("answers another organization's event exactly like an unknown one", async () => {
    const id = await seed(1, '2026-11-20T12:00:00.000Z');
    const unknown = '0193a7c4-1d2e-7f00-8a00-0000000000ff';
    const foreign = await getEvent(store, OTHER_ORG, id).catch((error: unknown) => error);
    const missing = await getEvent(store, ORG, unknown).catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((foreign as Error).message).toBe(`No event ${id}.`);
    expect((missing as Error).message).toBe(`No event ${unknown}.`);
  });

  it.each(['nope', '0193A7C4-1D2E-7F00-8A00-000000000001', '0193a7c4-1d2e-1f00-8a00-000000000001'])(
    'refuses the malformed id %s',
    async (id) => {
      const get = async () => getEvent(store, ORG, parseEventId(apiEvent({ path: { id } })));
      await expect(get()).rejects.toMatchObject({ params: [{ name: 'id' }] });
      expect(() => parseEventId(apiEvent({ path: { id } }))).toThrow(ValidationError);
    },
  );
});

describe('readFeed', () => {
  const feed = (after: number, limit: number) =>
    readFeed(
      { events: store, directory: new InMemoryDirectoryStore(), now: Date.now },
      ORG,
      IBAN,
      after,
      limit,
    );
  const large = (n: number) => `{"payload":{"n":${n},"blob":"${'x'.repeat(LOG_READ_MAX_BODY_BYTES / 4)}"}}`;

  it('ends an answer early when its payloads would pass the byte budget, and says more follow', async () => {
    for (let n = 1; n <= 6; n++) store.seed({ id: `e${n}`, orgId: ORG, sequence: n, body: large(n) });
    const first = await feed(0, 100);
    // Four bodies of a quarter of the budget each, plus their JSON, pass it: three fit.
    expect(first.events.map((event) => event.sequence)).toEqual([1, 2, 3]);
    expect(first).toMatchObject({ more: true, nextAfterSequence: 3 });
    const second = await feed(first.nextAfterSequence, 100);
    expect(second.events.map((event) => event.sequence)).toEqual([4, 5, 6]);
    expect(second).toMatchObject({ more: false, nextAfterSequence: 6 });
  });

  it('says more follow when it stops at the limit, and none after the last event', async () => {
    for (let n = 1; n <= 3; n++) store.seed({ id: `e${n}`, orgId: ORG, sequence: n });
    expect(await feed(0, 2)).toMatchObject({ more: true, nextAfterSequence: 2 });
    expect(await feed(2, 2)).toMatchObject({ more: false, nextAfterSequence: 3 });
    expect(await feed(3, 2)).toEqual({ events: [], voids: [], more: false, nextAfterSequence: 3 });
  });
});
