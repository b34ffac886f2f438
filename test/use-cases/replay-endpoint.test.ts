/**
 * Replaying an account at one endpoint (issue 32) with in-memory fakes: only the events routed to it are
 * sent again, there alone: a fanned-out event's delivery at that endpoint starts a new cycle (the event's
 * others are left), an event not fanned out starts its own cycle when the default endpoint is named, an
 * event routed elsewhere is passed; an endpoint the account does not have answers 404.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointDeliveries } from '#adapters/memory/endpoint-deliveries';
import { NotFoundError } from '#domain/errors';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import { replayAccount } from '#use-cases/events/replay';
import { addBooksEndpoint, BOOKS_ID, DEFAULT_ID } from '../support/books-endpoint';
import { FakeDeliveryQueue } from '../support/fakes/delivery-queue';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const sent = (status: number): DeliveryAttempt => ({
  deliveredAt: '2026-11-20T09:00:01.000Z',
  responseStatus: status,
  responseBody: '',
  responseTimeMs: 5,
});

async function world() {
  const events = new InMemoryEventStore();
  const queue = new FakeDeliveryQueue();
  const directory = new InMemoryDirectoryStore();
  const deliveries = new InMemoryEndpointDeliveries();
  directory.addOrganization();
  directory.addAccount({ iban: IBAN, webhookUrl: 'https://hooks.example.com/in' });
  const endpoints = await addBooksEndpoint(directory, IBAN);
  const deps = { events, queue, directory, endpoints, deliveries };
  /** A fanned-out event whose deliveries settled as `settled` says, its aggregate told. */
  const fanned = async (id: string, sequence: number, settled: Record<string, 200 | 500>) => {
    const routes = Object.keys(settled);
    const event = events.seed({ id, account: IBAN, sequence, routes, webhookStatus: 'pending' });
    for (const [endpointId, status] of Object.entries(settled)) {
      const ref = { ...event, sequence, endpointId };
      const delivery = await deliveries.recordAttempt(
        ref,
        sent(status),
        status === 200 ? 'success' : 'failed',
      );
      await events.settleRoute(event, endpointId, status === 200 ? 'success' : 'failed', delivery.retries);
    }
    return event;
  };
  return { events, queue, deliveries, directory, deps, fanned };
}

const at = (deliveries: InMemoryEndpointDeliveries, event: EventRecord, endpointId: string) =>
  deliveries.readDelivery({ ...event, sequence: event.sequence ?? 0, endpointId });

describe('replayAccount at one endpoint', () => {
  it('sends again at that endpoint alone the events routed there', async () => {
    const w = await world();
    w.events.seed({ id: 'e1', account: IBAN, sequence: 1, webhookStatus: 'success', webhookRetries: 1 });
    const both = await w.fanned('e2', 2, { [DEFAULT_ID]: 200, [BOOKS_ID]: 200 });
    w.events.seed({
      id: 'e3',
      account: IBAN,
      sequence: 3,
      routes: [DEFAULT_ID],
      webhookStatus: 'failed',
      webhookRetries: 20,
    });
    const books = await w.fanned('e4', 4, { [BOOKS_ID]: 500 });
    // The books endpoint is ordered, its watermark past every event.
    const key = `${IBAN}#${BOOKS_ID}`;
    const stored = w.directory.endpoints.get(key);
    if (!stored) throw new Error('no endpoint');
    w.directory.endpoints.set(key, { ...stored, deliveryOrder: 'ordered', settledThrough: 4, orderEpoch: 1 });

    const result = await replayAccount(w.deps, 'org-1', IBAN, 0, { id: BOOKS_ID, deps: w.deps });
    expect(result).toEqual({ queued: ['e2', 'e4'], usedUp: [], more: false, nextAfterSequence: 4 });
    expect(await at(w.deliveries, both, BOOKS_ID)).toMatchObject({
      status: 'pending',
      cycleBase: 1,
      cycles: 2,
    });
    expect(await at(w.deliveries, both, DEFAULT_ID)).toMatchObject({ status: 'success' });
    expect(await at(w.deliveries, books, BOOKS_ID)).toMatchObject({ status: 'pending', cycleBase: 1 });
    expect(w.events.events.get('e2')).toMatchObject({ webhookStatus: 'pending' });
    expect(w.events.events.get('e4')).toMatchObject({ webhookStatus: 'pending' });
    // The events not routed there are left as they were.
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success' });
    expect(w.events.events.get('e3')).toMatchObject({ webhookStatus: 'failed' });
    expect(w.queue.sent).toEqual([
      { id: 'e2', delaySeconds: 0, endpointId: BOOKS_ID },
      { id: 'e4', delaySeconds: 0, endpointId: BOOKS_ID },
    ]);
    // That endpoint's order restarts below the first event sent again there; the account's is left.
    expect(w.directory.endpoints.get(key)).toMatchObject({ settledThrough: 1, orderEpoch: 2 });
    expect(w.directory.accounts.get(IBAN)?.orderEpoch).toBeUndefined();
  });

  it("sends again at the default endpoint the account's own events and its deliveries of fanned-out ones", async () => {
    const w = await world();
    w.events.seed({ id: 'e1', account: IBAN, sequence: 1, webhookStatus: 'success', webhookRetries: 1 });
    const both = await w.fanned('e2', 2, { [DEFAULT_ID]: 200, [BOOKS_ID]: 500 });
    await w.fanned('e3', 3, { [BOOKS_ID]: 500 });

    const result = await replayAccount(w.deps, 'org-1', IBAN, 0, { id: DEFAULT_ID, deps: w.deps });
    expect(result.queued).toEqual(['e1', 'e2']);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'pending', cycleBase: 1 });
    expect(await at(w.deliveries, both, DEFAULT_ID)).toMatchObject({ status: 'pending' });
    // The other endpoint failed for good: the event stays failed while its default delivery runs again.
    expect(await at(w.deliveries, both, BOOKS_ID)).toMatchObject({ status: 'failed' });
    expect(w.events.events.get('e2')).toMatchObject({ webhookStatus: 'failed' });
    expect(w.events.events.get('e3')).toMatchObject({ webhookStatus: 'failed' });
  });

  it('answers 404 naming an endpoint the account does not have, sending nothing', async () => {
    const w = await world();
    await w.fanned('e1', 1, { [BOOKS_ID]: 500 });
    await expect(
      replayAccount(w.deps, 'org-1', IBAN, 0, { id: 'ep_0000000000ff', deps: w.deps }),
    ).rejects.toThrow(NotFoundError);
    expect(w.queue.sent).toEqual([]);
  });
});
