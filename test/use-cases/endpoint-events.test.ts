/**
 * `GET /events?account=…&endpoint_id=…` with in-memory fakes: an extra endpoint's events come from its
 * partition of deliveries, newest first, paged; the default endpoint's are the account's, less those
 * routed elsewhere only; an unknown endpoint or another organization's account answers 404.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointDeliveries } from '#adapters/memory/endpoint-deliveries';
import { NotFoundError, ValidationError } from '#domain/errors';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import { listEventsAt } from '#use-cases/events/endpoint-events';
import { addBooksEndpoint, BOOKS_ID, DEFAULT_ID } from '../support/books-endpoint';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const sent: DeliveryAttempt = {
  deliveredAt: '2026-11-27T10:00:00.000Z',
  responseStatus: 200,
  responseBody: '',
  responseTimeMs: 3,
};

async function world() {
  const events = new InMemoryEventStore();
  const deliveries = new InMemoryEndpointDeliveries();
  const directory = new InMemoryDirectoryStore();
  directory.addOrganization();
  directory.addAccount({ iban: IBAN, webhookUrl: 'https://hooks.example.com/h' });
  const endpoints = await addBooksEndpoint(directory, IBAN);
  // Five events: 1 and 2 not routed, 3 and 5 fanned out to both, 4 routed to the extra endpoint alone.
  const routes: Record<number, string[] | undefined> = {
    3: [DEFAULT_ID, BOOKS_ID],
    4: [BOOKS_ID],
    5: [DEFAULT_ID, BOOKS_ID],
  };
  const stored: EventRecord[] = [];
  for (let sequence = 1; sequence <= 5; sequence++) {
    const event = events.seed({
      id: `0199a3c4-0000-7000-8000-00000000000${sequence}`,
      account: IBAN,
      sequence,
      triggeredAt: `2026-11-27T10:00:0${sequence}.000Z`,
      routes: routes[sequence],
    });
    stored.push(event);
    if (routes[sequence]?.includes(BOOKS_ID)) {
      await deliveries.recordAttempt({ ...event, sequence, endpointId: BOOKS_ID }, sent, 'success');
    }
  }
  const deps = { events, directory, endpoints, deliveries };
  const list = (endpointId: string, page = 1, perPage = 10, more: object = {}) =>
    listEventsAt(deps, 'org-1', { page, perPage, filters: { account: IBAN, endpointId, ...more } });
  return { deps, stored, list };
}

const sequences = (page: { events: readonly EventRecord[] }) => page.events.map((event) => event.sequence);

describe('the events of one endpoint', () => {
  it("lists an extra endpoint's events from its deliveries, newest first, paged", async () => {
    const w = await world();
    expect(sequences(await w.list(BOOKS_ID))).toEqual([5, 4, 3]);
    const first = await w.list(BOOKS_ID, 1, 2);
    expect([sequences(first), first.hasMore]).toEqual([[5, 4], true]);
    const second = await w.list(BOOKS_ID, 2, 2);
    expect([sequences(second), second.hasMore]).toEqual([[3], false]);
  });

  it("lists the default endpoint's events: the account's, less those routed elsewhere only", async () => {
    const w = await world();
    expect(sequences(await w.list(DEFAULT_ID))).toEqual([5, 3, 2, 1]);
  });

  it('answers 404 for an unknown endpoint or another organization, 400 for another filter beside an extra endpoint', async () => {
    const w = await world();
    await expect(w.list('ep_0000000000ff')).rejects.toThrow(/has no endpoint ep_0000000000ff/);
    await expect(
      listEventsAt(w.deps, 'org-2', {
        page: 1,
        perPage: 10,
        filters: { account: IBAN, endpointId: BOOKS_ID },
      }),
    ).rejects.toThrow(NotFoundError);
    await expect(w.list(BOOKS_ID, 1, 10, { type: 'credit_received' })).rejects.toThrow(ValidationError);
  });
});
