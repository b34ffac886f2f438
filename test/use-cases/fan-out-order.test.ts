/**
 * Ordered delivery per endpoint in the fan-out (issue 32, finding 7b), with in-memory fakes: an ordered
 * default endpoint waits for its own delivery of each earlier event, not for the event's aggregate. An
 * extra endpoint that failed for good (aggregate `failed` at once) lets no later event overtake on the
 * default; one still retrying does not hold the default back. An ordered extra endpoint (added through
 * the use-case) failing an event holds back its own later events alone, then gets them in order.
 */
import { describe, expect, it } from 'vitest';
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { deliverMessage } from '#delivery/deliver-event';
import { DeliveryContext } from '#delivery/delivery-context';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import { type DeliveryTarget, decodeDeliveryMessage } from '#domain/delivery-message';
import type { EventRecord } from '#domain/model';
import type { WebhookRequest } from '#domain/ports';
import { addAccountEndpoint } from '#use-cases/accounts/endpoints';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { answer, ok } from '../support/fakes/webhook-sender';

const DEFAULT_ID = 'ep_00000000000d';
const EXTRA_ID = 'ep_0000000000a1';
const DEFAULT_URL = 'https://hooks.example.com/herald';
const EXTRA_URL = 'https://ledger.example.com/h';
const ORDERED_URL = 'https://orders.example.com/in-order';
const TYPE = 'credit_received';

/** An account whose default endpoint is ordered, with one extra endpoint subscribed to every event. */
async function orderedWithExtra() {
  const w = deliveryWorld();
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  w.directory.accounts.set(w.iban, { ...account, endpointId: DEFAULT_ID, deliveryOrder: 'ordered' });
  const endpoints = new InMemoryEndpointStore(w.directory);
  await endpoints.addEndpoint({
    iban: w.iban,
    orgId: 'org-1',
    id: EXTRA_ID,
    url: EXTRA_URL,
    createdAt: '2026-11-20T08:00:00.000Z',
  });
  const deps = { ...w.deps, endpointStore: endpoints };
  let sequence = 0;
  const publish = (id: string): EventRecord =>
    w.events.seed({ id, type: TYPE, sequence: ++sequence, body: JSON.stringify({ id, payload: {} }) });
  const idsAt = (url: string) =>
    w.sender.requests
      .filter((request: WebhookRequest) => request.url === url)
      .map((request) => request.headers['webhook-id']);
  const deliveryOf = (event: EventRecord, endpointId: string) =>
    w.deliveries.readDelivery({ ...event, sequence: event.sequence ?? 0, endpointId });
  let read = 0;
  /** Handles the given messages, then every message the queue got since, as one batch: the outcomes. */
  const handle = async (targets: DeliveryTarget[]): Promise<Map<string, DeliveryOutcome['kind']>> => {
    const context = new DeliveryContext(w.directory, undefined, undefined, endpoints);
    const queued = w.queue.bodies.slice(read).map((body) => decodeDeliveryMessage(body));
    read = w.queue.bodies.length;
    const outcomes = new Map<string, DeliveryOutcome['kind']>();
    for (const target of [...targets, ...queued]) {
      if (!target) continue;
      const outcome = await deliverMessage(deps, target, 2, context);
      if (outcome.kind === 'thrown') throw outcome.error;
      outcomes.set(`${target.id}@${target.endpointId ?? 'own'}`, outcome.kind);
    }
    return outcomes;
  };
  const own = (event: EventRecord): DeliveryTarget => ({ id: event.id, at: event });
  const at = (event: EventRecord, endpointId: string): DeliveryTarget => ({
    id: event.id,
    at: event,
    endpointId,
  });
  return { ...w, publish, idsAt, deliveryOf, handle, own, at };
}

describe('ordered delivery per endpoint in the fan-out', () => {
  it('lets no event overtake on the ordered default while its earlier delivery is pending, whatever the aggregate', async () => {
    const w = await orderedWithExtra();
    let defaultCalls = 0;
    // The extra endpoint is gone for good (410); the default fails its first call, then takes everything.
    w.sender.answer = (request) =>
      request.url === EXTRA_URL ? answer(410) : ++defaultCalls === 1 ? answer(500) : ok();
    const e1 = w.publish('e1');
    const e2 = w.publish('e2');
    await w.handle([w.own(e1)]);
    // e1 at the extra first (the event fails as a whole), then at the default (a retry is scheduled).
    await w.handle([]);
    expect(w.events.events.get('e1')?.webhookStatus).toBe('failed');
    expect((await w.deliveryOf(e1, DEFAULT_ID)).status).toBe('pending');
    // e2 fans out; at the default it waits for e1's default delivery.
    await w.handle([w.own(e2)]);
    const outcomes = await w.handle([]);
    expect(outcomes.get(`e2@${DEFAULT_ID}`)).toBe('waiting');
    expect(w.idsAt(DEFAULT_URL)).toEqual(['e1']);
    // e1's default delivery succeeds at its retry; e2 is sent at once after it, and goes.
    w.clock.advance(3_600_000);
    await w.handle([w.at(e1, DEFAULT_ID)]);
    expect((await w.deliveryOf(e1, DEFAULT_ID)).status).toBe('success');
    await w.handle([]);
    expect(w.idsAt(DEFAULT_URL)).toEqual(['e1', 'e1', 'e2']);
    expect((await w.deliveryOf(e2, DEFAULT_ID)).status).toBe('success');
  });

  it('does not hold the ordered default back for an extra endpoint still retrying', async () => {
    const w = await orderedWithExtra();
    w.sender.answer = (request) => (request.url === EXTRA_URL ? answer(500) : ok());
    const e1 = w.publish('e1');
    const e2 = w.publish('e2');
    await w.handle([w.own(e1)]);
    await w.handle([]);
    expect((await w.deliveryOf(e1, EXTRA_ID)).status).toBe('pending');
    expect(w.events.events.get('e1')?.webhookStatus).toBe('pending');
    await w.handle([w.own(e2)]);
    const outcomes = await w.handle([]);
    expect(outcomes.get(`e2@${DEFAULT_ID}`)).toBe('delivered');
    expect(w.idsAt(DEFAULT_URL)).toEqual(['e1', 'e2']);
  });

  it('holds an ordered extra endpoint back alone on its failing event, then sends it the rest in order', async () => {
    const w = await orderedWithExtra();
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    w.directory.accounts.set(w.iban, { ...account, deliveryOrder: undefined });
    // Added as its organization adds it: the use-case that refused 'ordered' for an extra endpoint.
    const ordered = await addAccountEndpoint(
      {
        directory: w.directory,
        events: w.events,
        endpoints: new InMemoryEndpointStore(w.directory),
        endpointSecrets: new FakeEndpointSecretStore(w.directory),
        sealer: new FakeSecretSealer(),
        policy: 'allow-http',
        checkTls: checkTlsMaterial,
        now: w.clock.now,
        health: w.health,
        eventTypes: new InMemoryEventTypeStore(),
      },
      { orgId: 'org-1' },
      w.iban,
      { url: ORDERED_URL, deliveryOrder: 'ordered', security: {} },
    );
    const orderedId = ordered.id ?? '';
    let orderedCalls = 0;
    // The ordered extra endpoint fails its first call (e1); everything else succeeds.
    w.sender.answer = (request) => (request.url === ORDERED_URL && ++orderedCalls === 1 ? answer(500) : ok());
    const [e1, e2, e3] = [w.publish('e1'), w.publish('e2'), w.publish('e3')];
    await w.handle([w.own(e1), w.own(e2), w.own(e3)]);
    const outcomes = await w.handle([]);
    expect(outcomes.get(`e1@${orderedId}`)).toBe('retry');
    expect(outcomes.get(`e2@${orderedId}`)).toBe('waiting');
    expect(outcomes.get(`e3@${orderedId}`)).toBe('waiting');
    // The default and the other extra endpoint got every event, not held back by the ordered one.
    expect(w.idsAt(DEFAULT_URL)).toEqual(['e1', 'e2', 'e3']);
    expect(w.idsAt(EXTRA_URL)).toEqual(['e1', 'e2', 'e3']);
    expect(w.idsAt(ORDERED_URL)).toEqual(['e1']);
    // e1 settles at the ordered endpoint on its retry: e2 then e3 follow, in order.
    w.clock.advance(3_600_000);
    await w.handle([w.at(e1, orderedId)]);
    for (let round = 0; round < 3; round++) await w.handle([]);
    expect(w.idsAt(ORDERED_URL)).toEqual(['e1', 'e1', 'e2', 'e3']);
    for (const event of [e1, e2, e3]) expect((await w.deliveryOf(event, orderedId)).status).toBe('success');
    expect(w.directory.endpoints.get(`${w.iban}#${orderedId}`)?.settledThrough).toBeGreaterThanOrEqual(2);
  });
});
