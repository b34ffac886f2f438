/**
 * The single event view's parts per endpoint (issue 32), with in-memory fakes: an event not routed is
 * its default endpoint's, read from its own item (its account read for the endpoint's id, no delivery
 * read); a fanned-out event shows one part per routed endpoint from its delivery (one batch read), every
 * attempt naming its endpoint in time order, and its retries counted live while deliveries run.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointDeliveries } from '#adapters/memory/endpoint-deliveries';
import { NotFoundError } from '#domain/errors';
import type { DeliveryAttempt } from '#domain/model';
import { getEventWithEndpoints } from '#use-cases/events/event-endpoints';
import { BOOKS_ID, DEFAULT_ID, nameDefaultEndpoint } from '../support/books-endpoint';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const STORE_ID = 'ep_0000000000b2';

const attempt = (at: string, status: number, url = 'https://hooks.example.com/h'): DeliveryAttempt => ({
  deliveredAt: `2026-11-27T10:00:${at}.000Z`,
  responseStatus: status,
  responseBody: `answer ${status}`,
  responseTimeMs: 12,
  url,
  signingKeys: [],
});

function world() {
  const events = new InMemoryEventStore();
  const deliveries = new InMemoryEndpointDeliveries();
  const directory = new InMemoryDirectoryStore();
  directory.addOrganization();
  directory.addAccount({ iban: IBAN, webhookUrl: 'https://hooks.example.com/h' });
  nameDefaultEndpoint(directory, IBAN);
  return { events, deliveries, directory, deps: { events, deliveries, directory } };
}

describe('the single event view, per endpoint', () => {
  it('shows an event not routed as its default endpoint alone, from its own item, with no delivery read', async () => {
    const w = world();
    const event = w.events.seed({
      id: '0199a3c4-0000-7000-8000-000000000001',
      account: IBAN,
      sequence: 1,
      webhookStatus: 'pending',
      webhookRetries: 1,
      deliveries: [attempt('01', 503)],
      nextAttemptAt: 1_800_000_000_000,
    });
    const view = await getEventWithEndpoints(w.deps, 'org-1', event.id);
    expect(view.endpoints).toEqual([
      { endpointId: DEFAULT_ID, status: 'pending', retries: 1, nextAttemptAt: 1_800_000_000_000 },
    ]);
    expect(view.attempts).toEqual([{ ...attempt('01', 503), endpointId: DEFAULT_ID }]);
    expect(view.event.webhookRetries).toBe(1);
    expect(w.deliveries.batchReads).toEqual([]);
  });

  it('shows an event routed to its default endpoint alone from its own item, named by its routing', async () => {
    const w = world();
    const event = w.events.seed({
      id: '0199a3c4-0000-7000-8000-000000000002',
      account: IBAN,
      sequence: 2,
      routes: [DEFAULT_ID],
      webhookStatus: 'success',
      webhookRetries: 1,
      deliveries: [attempt('02', 200)],
    });
    const view = await getEventWithEndpoints(w.deps, 'org-1', event.id);
    expect(view.endpoints).toEqual([
      { endpointId: DEFAULT_ID, status: 'success', retries: 1, nextAttemptAt: undefined },
    ]);
    expect(view.attempts.map((a) => a.endpointId)).toEqual([DEFAULT_ID]);
  });

  it('shows a fanned-out event per routed endpoint, every attempt in time order, its retries counted live', async () => {
    const w = world();
    const event = w.events.seed({
      id: '0199a3c4-0000-7000-8000-000000000003',
      account: IBAN,
      sequence: 3,
      routes: [DEFAULT_ID, BOOKS_ID, STORE_ID],
      webhookStatus: 'pending',
      // The aggregate counted the default endpoint's settled delivery so far.
      webhookRetries: 1,
    });
    const at = (endpointId: string) => ({ ...event, sequence: 3, endpointId });
    await w.deliveries.recordAttempt(
      at(BOOKS_ID),
      attempt('01', 500, 'https://books.example.com/h'),
      'pending',
      1_800_000_030_000,
    );
    await w.deliveries.recordAttempt(at(DEFAULT_ID), attempt('02', 200), 'success');
    await w.deliveries.recordAttempt(
      at(BOOKS_ID),
      attempt('03', 503, 'https://books.example.com/h'),
      'pending',
      1_800_000_090_000,
    );
    // The third endpoint's delivery is untouched: pending, no attempt.
    const view = await getEventWithEndpoints(w.deps, 'org-1', event.id);
    expect(view.endpoints).toEqual([
      { endpointId: DEFAULT_ID, status: 'success', retries: 1, nextAttemptAt: undefined },
      { endpointId: BOOKS_ID, status: 'pending', retries: 2, nextAttemptAt: 1_800_000_090_000 },
      { endpointId: STORE_ID, status: 'pending', retries: 0, nextAttemptAt: undefined },
    ]);
    expect(view.attempts.map((a) => [a.deliveredAt.slice(17, 19), a.endpointId, a.responseStatus])).toEqual([
      ['01', BOOKS_ID, 500],
      ['02', DEFAULT_ID, 200],
      ['03', BOOKS_ID, 503],
    ]);
    expect(view.event).toMatchObject({
      webhookStatus: 'pending',
      webhookRetries: 3,
      nextAttemptAt: 1_800_000_090_000,
    });
    // One batch read of the three routed deliveries.
    expect(w.deliveries.batchReads).toEqual([3]);
  });

  it('shows an event routed to one extra endpoint from its delivery, and one routed nowhere with none', async () => {
    const w = world();
    const extra = w.events.seed({
      id: '0199a3c4-0000-7000-8000-000000000004',
      account: IBAN,
      sequence: 4,
      routes: [BOOKS_ID],
      webhookStatus: 'failed',
      webhookRetries: 2,
    });
    const ref = { ...extra, sequence: 4, endpointId: BOOKS_ID };
    await w.deliveries.recordAttempt(ref, attempt('01', 500), 'pending', 1);
    await w.deliveries.recordAttempt(ref, attempt('05', 500), 'failed');
    const view = await getEventWithEndpoints(w.deps, 'org-1', extra.id);
    expect(view.endpoints).toEqual([
      { endpointId: BOOKS_ID, status: 'failed', retries: 2, nextAttemptAt: undefined },
    ]);
    expect(view.attempts.map((a) => a.endpointId)).toEqual([BOOKS_ID, BOOKS_ID]);

    const nowhere = w.events.seed({
      id: '0199a3c4-0000-7000-8000-000000000005',
      account: IBAN,
      sequence: 5,
      routes: [],
      webhookStatus: 'skipped',
    });
    expect((await getEventWithEndpoints(w.deps, 'org-1', nowhere.id)).endpoints).toEqual([]);
  });

  it('shows a delivery settled before its event was redelivered whole as pending', async () => {
    const w = world();
    const event = w.events.seed({
      id: '0199a3c4-0000-7000-8000-000000000007',
      account: IBAN,
      sequence: 7,
      routes: [DEFAULT_ID, BOOKS_ID],
      webhookStatus: 'pending',
      routeCycle: 1,
    });
    const at = (endpointId: string) => ({ ...event, sequence: 7, endpointId });
    await w.deliveries.recordAttempt(at(DEFAULT_ID), attempt('01', 200), 'success');
    await w.deliveries.recordAttempt(at(BOOKS_ID), attempt('02', 200), 'success');
    // The default endpoint's message came already: its delivery is in the event's route cycle.
    await w.deliveries.startCycle(at(DEFAULT_ID), 1, true);
    const view = await getEventWithEndpoints(w.deps, 'org-1', event.id);
    expect(view.endpoints.map((part) => [part.endpointId, part.status, part.retries])).toEqual([
      [DEFAULT_ID, 'pending', 1],
      [BOOKS_ID, 'pending', 1],
    ]);
  });

  it("answers another organization's event as unknown", async () => {
    const w = world();
    const event = w.events.seed({ id: '0199a3c4-0000-7000-8000-000000000006', account: IBAN, sequence: 6 });
    await expect(getEventWithEndpoints(w.deps, 'org-2', event.id)).rejects.toThrow(NotFoundError);
  });
});
