/**
 * Redelivery at one endpoint (issue 32), with in-memory fakes and the real consumer: only the named
 * endpoint's delivery starts a new cycle (counted on that delivery, at most MAX_CYCLES), the event's
 * aggregate takes it out and is pending again, one message for that endpoint alone is queued; the others
 * are not sent again. An event not fanned out is redelivered as a whole when its default endpoint is named.
 */
import { describe, expect, it } from 'vitest';
import { deliverMessage } from '#delivery/deliver-event';
import { DeliveryContext } from '#delivery/delivery-context';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { type DeliveryTarget, decodeDeliveryMessage } from '#domain/delivery-message';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import { redeliverAtEndpoint } from '#use-cases/events/redeliver-endpoint';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import {
  addBooksEndpoint,
  BOOKS_ID,
  BOOKS_URL,
  DEFAULT_ID,
  nameDefaultEndpoint,
} from '../support/books-endpoint';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { answer, ok } from '../support/fakes/webhook-sender';

const DEFAULT_URL = 'https://hooks.example.com/herald';

/** An account with its default endpoint and one extra endpoint for every event; two attempts per cycle. */
async function twoEndpoints() {
  const w = deliveryWorld();
  const endpoints = await addBooksEndpoint(w.directory, w.iban);
  const deps = { ...w.deps, endpointStore: endpoints, maxAttempts: 2 };
  const redeliverDeps = {
    events: w.events,
    queue: w.queue,
    now: w.clock.now,
    directory: w.directory,
    deliveries: w.deliveries,
  };
  let read = 0;
  /** Handles the given messages and those queued, then every message queued since, round by round, a minute apart. */
  const fresh = (): DeliveryTarget[] => {
    const targets = w.queue.bodies.slice(read).flatMap((body) => decodeDeliveryMessage(body) ?? []);
    read = w.queue.bodies.length;
    return targets;
  };
  const run = async (first: DeliveryTarget[]) => {
    let waiting = [...first, ...fresh()];
    for (let round = 1; waiting.length > 0 && round <= 10; round++) {
      const context = new DeliveryContext(w.directory, undefined, undefined, endpoints);
      const next: DeliveryTarget[] = [];
      for (const target of waiting) {
        const outcome = await deliverMessage(deps, target, round, context);
        if (outcome.kind === 'thrown') throw outcome.error;
        if (['retry', 'not-due', 'deferred'].includes(outcome.kind)) next.push(target);
      }
      waiting = [...next, ...fresh()];
      w.clock.advance(60_000);
    }
  };
  const publish = (id: string): EventRecord =>
    w.events.seed({ id, type: 'credit_received', sequence: 1, body: JSON.stringify({ id, payload: {} }) });
  const byUrl = (url: string) => w.sender.requests.filter((request) => request.url === url);
  const delivery = (event: EventRecord, endpointId: string) =>
    w.deliveries.readDelivery({ ...event, sequence: 1, endpointId });
  const queued = () => w.queue.sent.slice(read);
  return { ...w, run, publish, byUrl, delivery, queued, redeliverDeps };
}

/**
 * Two endpoints, the further one (books) ordered and answering 503: `e1` is delivered once and settled
 * (failed) at books, its watermark moved over it.
 */
async function orderedBooksFailedOnce() {
  const w = await twoEndpoints();
  const key = `${w.iban}#${BOOKS_ID}`;
  const books = w.directory.endpoints.get(key);
  if (!books) throw new Error('no endpoint');
  w.directory.endpoints.set(key, { ...books, deliveryOrder: 'ordered', settledThrough: 0, orderEpoch: 1 });
  w.sender.answer = (request) => (request.url === BOOKS_URL ? answer(503) : ok());
  const event = w.publish('e1');
  await w.run([{ id: event.id, at: event }]);
  return { w, key };
}

describe('redelivery at one endpoint', () => {
  it('restarts only that endpoint’s delivery: its aggregate pending again, the other endpoint not sent again', async () => {
    const w = await twoEndpoints();
    w.sender.answer = (request) => (request.url === BOOKS_URL ? answer(503) : ok());
    const event = w.publish('e1');
    await w.run([{ id: event.id, at: event }]);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 3 });
    expect(await w.delivery(event, BOOKS_ID)).toMatchObject({ status: 'failed', retries: 2, cycles: 1 });

    expect(await redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e1', BOOKS_ID)).toEqual({ queued: ['e1'] });
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 3 });
    expect(await w.delivery(event, BOOKS_ID)).toMatchObject({ status: 'pending', cycleBase: 2, cycles: 2 });
    expect(await w.delivery(event, DEFAULT_ID)).toMatchObject({ status: 'success', retries: 1 });
    expect(w.queued()).toEqual([{ id: 'e1', delaySeconds: 0, endpointId: BOOKS_ID }]);

    w.sender.answer = () => ok();
    await w.run([]);
    expect(w.byUrl(BOOKS_URL)).toHaveLength(3);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(1);
    expect(await w.delivery(event, BOOKS_ID)).toMatchObject({ status: 'success', retries: 3 });
    // The aggregate: every endpoint succeeded, every attempt counted once.
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 4 });
  });

  it("restarts that endpoint's own order below the event, not the account's", async () => {
    const { w, key } = await orderedBooksFailedOnce();
    // Settled (failed) at the ordered endpoint: its watermark moved over it.
    expect(w.directory.endpoints.get(key)).toMatchObject({ settledThrough: 1, orderEpoch: 1 });
    const accountEpoch = w.directory.accounts.get(w.iban)?.orderEpoch;

    await redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e1', BOOKS_ID);
    // The events after it at that endpoint wait for it again; the account's (default endpoint's) order is left.
    expect(w.directory.endpoints.get(key)).toMatchObject({ settledThrough: 0, orderEpoch: 2 });
    expect(w.directory.accounts.get(w.iban)?.orderEpoch).toBe(accountEpoch);
  });

  it("restarts every routed endpoint's order when the whole event is redelivered", async () => {
    const { w, key } = await orderedBooksFailedOnce();
    expect(w.directory.endpoints.get(key)).toMatchObject({ settledThrough: 1, orderEpoch: 1 });
    const accountEpoch = w.directory.accounts.get(w.iban)?.orderEpoch ?? 0;

    await redeliverEvent(w.redeliverDeps, 'org-1', 'e1');
    expect(w.directory.endpoints.get(key)).toMatchObject({ settledThrough: 0, orderEpoch: 2 });
    expect(w.directory.accounts.get(w.iban)?.orderEpoch).toBe(accountEpoch + 1);
  });

  it('counts cycles per delivery: at most MAX_CYCLES, then 409 with nothing written', async () => {
    const w = await twoEndpoints();
    const event = w.publish('e2');
    await w.run([{ id: event.id, at: event }]);
    for (let cycle = 2; cycle <= MAX_CYCLES; cycle++) {
      await redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e2', BOOKS_ID);
      await w.run([]);
    }
    expect(await w.delivery(event, BOOKS_ID)).toMatchObject({ status: 'success', cycles: MAX_CYCLES });
    const writes = w.events.writes.length;
    await expect(redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e2', BOOKS_ID)).rejects.toThrow(
      ConflictError,
    );
    expect(w.events.writes).toHaveLength(writes);
    expect(w.queued()).toEqual([]);
    // The other endpoint's delivery has cycles of its own left.
    expect(await redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e2', DEFAULT_ID)).toEqual({ queued: ['e2'] });
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(1);
    await w.run([]);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(2);
    expect(w.byUrl(BOOKS_URL)).toHaveLength(MAX_CYCLES);
  });

  it('refuses a delivery under way, an endpoint the event was not routed to, and another organization', async () => {
    const w = await twoEndpoints();
    w.sender.answer = (request) => (request.url === BOOKS_URL ? answer(503) : ok());
    const event = w.publish('e3');
    await w.run([{ id: event.id, at: event }]);
    await expect(redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e3', 'ep_0000000000ff')).rejects.toThrow(
      /not routed to endpoint ep_0000000000ff/,
    );
    await expect(redeliverAtEndpoint(w.redeliverDeps, 'org-2', 'e3', BOOKS_ID)).rejects.toThrow(
      NotFoundError,
    );
    w.events.seed({ id: 'e4', type: 'credit_received', sequence: 2, routes: [DEFAULT_ID, BOOKS_ID] });
    await expect(redeliverAtEndpoint(w.redeliverDeps, 'org-1', 'e4', BOOKS_ID)).rejects.toThrow(/under way/);
  });

  it('redelivers an event not fanned out as a whole when its default endpoint is named, and no other', async () => {
    const w = deliveryWorld();
    nameDefaultEndpoint(w.directory, w.iban);
    w.events.seed({ id: 'e5', sequence: 1, webhookStatus: 'failed', webhookRetries: 20 });
    const deps = {
      events: w.events,
      queue: w.queue,
      now: w.clock.now,
      directory: w.directory,
      deliveries: w.deliveries,
    };
    await expect(redeliverAtEndpoint(deps, 'org-1', 'e5', BOOKS_ID)).rejects.toThrow(NotFoundError);
    expect(await redeliverAtEndpoint(deps, 'org-1', 'e5', DEFAULT_ID)).toEqual({ queued: ['e5'] });
    expect(w.events.events.get('e5')).toMatchObject({ webhookStatus: 'pending', cycleBase: 20 });
    expect(w.queue.sent).toEqual([{ id: 'e5', delaySeconds: 0 }]);
  });
});
