/**
 * The fan-out (issue 32), with in-memory fakes: an event routed to an extra endpoint is sent as one
 * message per routed endpoint (the default one included), each delivered at its endpoint on its own
 * delivery (attempts, cycle, lease, health, `410`), and the event's item keeps the aggregate: `success`
 * once every routed endpoint succeeded, `failed` when one failed for good, its `webhook_retries` every
 * endpoint's attempts. Events not fanned out keep the default endpoint's path and cost.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { reconcileDeadLetter } from '#delivery/dead-letter';
import type { BatchDeps } from '#delivery/deliver-batch';
import { deliverMessage } from '#delivery/deliver-event';
import { DeliveryContext } from '#delivery/delivery-context';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import { type DeliveryTarget, decodeDeliveryMessage } from '#domain/delivery-message';
import type { EventRecord } from '#domain/model';
import type { WebhookRequest } from '#domain/ports';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { answer, ok } from '../support/fakes/webhook-sender';
import { expectNoticesInCatalog } from '../support/notice-schemas';

const DEFAULT_ID = 'ep_00000000000d';
const CREDITS_ID = 'ep_0000000000a1';
const REJECTS_ID = 'ep_0000000000a2';
const CREDIT = 'credit_received';
const TRANSFER = 'credit_transfer_status_change';
const DEFAULT_URL = 'https://hooks.example.com/herald';
const CREDITS_URL = 'https://credits.example.com/h';
const REJECTS_URL = 'https://rejects.example.com/h';

/**
 * An account with three endpoints: its default one (every event), one subscribed to `credit_received`,
 * one to rejected transfers (a payload filter).
 */
async function threeEndpoints(overrides: Partial<BatchDeps> = {}) {
  const w = deliveryWorld();
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  w.directory.accounts.set(w.iban, { ...account, endpointId: DEFAULT_ID });
  const endpoints = new InMemoryEndpointStore(w.directory);
  const add = (id: string, url: string, more: object) =>
    endpoints.addEndpoint({
      iban: w.iban,
      orgId: 'org-1',
      id,
      url,
      createdAt: '2026-11-20T08:00:00.000Z',
      ...more,
    });
  await add(CREDITS_ID, CREDITS_URL, { eventTypes: [CREDIT] });
  await add(REJECTS_ID, REJECTS_URL, { filter: { status: ['rejected'] } });
  const deps = { ...w.deps, endpointStore: endpoints, ...overrides };
  let sequence = 0;
  const publish = (id: string, type: string, payload: object): EventRecord =>
    w.events.seed({ id, type, sequence: ++sequence, body: JSON.stringify({ id, payload }) });
  const byUrl = (url: string) => w.sender.requests.filter((request: WebhookRequest) => request.url === url);
  const delivery = (event: EventRecord, endpointId: string) =>
    w.deliveries.readDelivery({ ...event, sequence: event.sequence ?? 0, endpointId });
  const stored = (id: string) => w.events.events.get(id);

  /**
   * Handles the event's own message, then every message the queue got, as a consumer would, rounds
   * apart by `waitMs` (a retried message comes back in a later round): the outcomes, in order.
   */
  const run = async (event: EventRecord, rounds = 1, waitMs = 60_000): Promise<DeliveryOutcome[]> => {
    const outcomes: DeliveryOutcome[] = [];
    let waiting: DeliveryTarget[] = [{ id: event.id, at: event }];
    let read = w.queue.bodies.length;
    for (let round = 0; round < rounds && waiting.length > 0; round++) {
      const next: DeliveryTarget[] = [];
      // One batch's context per round: endpoints and health as committed at its start.
      const context = new DeliveryContext(w.directory, undefined, undefined, endpoints);
      for (const target of waiting) {
        const outcome = await deliverMessage(deps, target, round + 1, context);
        if (outcome.kind === 'thrown') throw outcome.error;
        outcomes.push(outcome);
        if (['retry', 'not-due', 'deferred'].includes(outcome.kind)) next.push(target);
      }
      for (const body of w.queue.bodies.slice(read)) {
        const target = decodeDeliveryMessage(body);
        if (target) next.push(target);
      }
      read = w.queue.bodies.length;
      waiting = next;
      w.clock.advance(waitMs);
    }
    return outcomes;
  };
  return { ...w, deps, endpoints, publish, byUrl, delivery, stored, run };
}

describe('the fan-out to several endpoints', () => {
  it('sends each endpoint exactly the events it subscribed to, one delivery each', async () => {
    const w = await threeEndpoints();
    const settled = w.publish('settled', TRANSFER, { status: 'settled' });
    const credit = w.publish('credit', CREDIT, { status: 'booked' });
    const rejected = w.publish('rejected', TRANSFER, { status: 'rejected' });
    // Routed to the default endpoint alone: today's path, one write, no delivery item, no fan-out.
    expect((await w.run(settled)).map((outcome) => outcome.kind)).toEqual(['delivered']);
    expect(w.events.writes).toEqual(['RecordRoutes', 'RecordAttempt']);
    expect(w.deliveries.writes).toEqual([]);
    // Fanned out: the event's own message sends one message per routed endpoint, each delivered there.
    expect((await w.run(credit, 2)).map((outcome) => outcome.kind)).toEqual([
      'routed',
      'delivered',
      'delivered',
    ]);
    expect((await w.run(rejected, 2)).map((outcome) => outcome.kind)).toEqual([
      'routed',
      'delivered',
      'delivered',
    ]);
    expect(w.byUrl(DEFAULT_URL).map((request) => request.headers['webhook-id'])).toEqual([
      'settled',
      'credit',
      'rejected',
    ]);
    expect(w.byUrl(CREDITS_URL).map((request) => request.headers['webhook-id'])).toEqual(['credit']);
    expect(w.byUrl(REJECTS_URL).map((request) => request.headers['webhook-id'])).toEqual(['rejected']);
    for (const id of ['settled', 'credit', 'rejected']) {
      expect(w.stored(id)).toMatchObject({ webhookStatus: 'success' });
    }
    // The aggregate counts every endpoint's attempts; each delivery its own.
    expect(w.stored('credit')).toMatchObject({ routes: [DEFAULT_ID, CREDITS_ID], webhookRetries: 2 });
    expect(await w.delivery(credit, CREDITS_ID)).toMatchObject({ status: 'success', retries: 1 });
    expect(await w.delivery(credit, DEFAULT_ID)).toMatchObject({ status: 'success', retries: 1 });
    expect((await w.delivery(credit, CREDITS_ID)).deliveries[0]?.url).toBe(CREDITS_URL);
  });

  it('does not delay the other endpoints for a failing one, whose retries stay its own', async () => {
    const w = await threeEndpoints();
    let rejectsCalls = 0;
    w.sender.answer = (request) => (request.url === REJECTS_URL && ++rejectsCalls <= 2 ? answer(500) : ok());
    const rejected = w.publish('rejected', TRANSFER, { status: 'rejected' });
    const outcomes = await w.run(rejected, 5);
    // Round 2: the default endpoint delivered while the failing one was told to retry.
    expect(outcomes.slice(0, 3).map((outcome) => outcome.kind)).toEqual(['routed', 'delivered', 'retry']);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(1);
    expect(w.byUrl(REJECTS_URL)).toHaveLength(3);
    const delivery = await w.delivery(rejected, REJECTS_ID);
    expect(delivery).toMatchObject({ status: 'success', retries: 3 });
    expect(delivery.deliveries).toHaveLength(delivery.retries);
    expect(w.stored('rejected')).toMatchObject({ webhookStatus: 'success', webhookRetries: 4 });
  });

  it('disables only the endpoint that answered 410, and fails the event as a whole', async () => {
    const w = await threeEndpoints();
    w.sender.answer = (request) => (request.url === REJECTS_URL ? answer(410) : ok());
    const rejected = w.publish('rejected', TRANSFER, { status: 'rejected' });
    await w.run(rejected, 2);
    expect(w.health.get(`${w.iban}#${REJECTS_ID}`).state).toBe('disabled');
    expect(w.health.get(w.iban).state).toBe('healthy');
    expect(await w.delivery(rejected, DEFAULT_ID)).toMatchObject({ status: 'success' });
    expect(await w.delivery(rejected, REJECTS_ID)).toMatchObject({ status: 'failed', retries: 1 });
    expect(w.stored('rejected')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 2 });
    // The next event still goes to the default endpoint; the disabled one's delivery is skipped.
    const next = w.publish('next', TRANSFER, { status: 'rejected' });
    await w.run(next, 2);
    expect(w.byUrl(REJECTS_URL)).toHaveLength(1);
    expect(await w.delivery(next, REJECTS_ID)).toMatchObject({ status: 'skipped', retries: 0 });
    expect(w.stored('next')).toMatchObject({ webhookStatus: 'success', webhookRetries: 1 });
  });

  it('never makes a 21st attempt at an endpoint, whatever messages repeat', async () => {
    const w = await threeEndpoints();
    w.sender.answer = (request) => (request.url === CREDITS_URL ? answer(500) : ok());
    const credit = w.publish('credit', CREDIT, {});
    await w.run(credit, 200, 600_000);
    expect(w.byUrl(CREDITS_URL)).toHaveLength(20);
    expect(await w.delivery(credit, CREDITS_ID)).toMatchObject({ status: 'failed', retries: 20 });
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 21 });
    // A late duplicate of the event's message fans out again: nothing more is sent.
    await w.run(credit, 3);
    expect(w.byUrl(CREDITS_URL)).toHaveLength(20);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(1);
  });

  it('sends once per endpoint when the event is fanned out twice (a duplicate or a crash)', async () => {
    const w = await threeEndpoints();
    const credit = w.publish('credit', CREDIT, {});
    const context = new DeliveryContext(w.directory, undefined, undefined, w.endpoints);
    // Two handlings of the event's message (each fans out), then all four messages.
    expect((await deliverMessage(w.deps, { id: 'credit', at: credit }, 1, context)).kind).toBe('routed');
    const outcomes = await w.run(credit, 2);
    expect(outcomes.filter((outcome) => outcome.kind === 'delivered')).toHaveLength(2);
    expect(w.byUrl(CREDITS_URL)).toHaveLength(1);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(1);
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'success', webhookRetries: 2 });
  });

  it("takes the delivery's lease for its first attempt too: another consumer's attempt is not repeated", async () => {
    const w = await threeEndpoints();
    const credit = w.publish('credit', CREDIT, {});
    const now = w.clock.now();
    // Another consumer, handling a copy of the credits endpoint's message, holds its first attempt.
    const ref = { ...credit, sequence: credit.sequence ?? 0, endpointId: CREDITS_ID };
    const claim = { expectedRetries: 0, untilEpochMs: now + 120_000, nowEpochMs: now, dueByEpochMs: now };
    expect(await w.deliveries.takeLease(ref, claim)).toBe(true);
    const outcomes = await w.run(credit, 2);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['routed', 'delivered', 'duplicate']);
    expect(w.byUrl(CREDITS_URL)).toHaveLength(0);
  });

  it('goes by the routing recorded, though a subscription changed or an endpoint was removed after', async () => {
    const w = await threeEndpoints();
    const credit = w.publish('credit', CREDIT, {});
    const context = new DeliveryContext(w.directory, undefined, undefined, w.endpoints);
    expect((await deliverMessage(w.deps, { id: 'credit', at: credit }, 1, context)).kind).toBe('routed');
    // Meanwhile the credits endpoint stops wanting credits, and the default endpoint is subscribed to
    // transfers only: the event was routed to both, and both deliver it.
    await w.endpoints.updateEndpoint({
      iban: w.iban,
      orgId: 'org-1',
      id: CREDITS_ID,
      eventTypes: [TRANSFER],
      updatedAt: '2026-11-20T09:00:00.000Z',
    });
    const account = w.directory.accounts.get(w.iban);
    if (account) w.directory.accounts.set(w.iban, { ...account, eventTypes: [TRANSFER] });
    await w.run(credit, 2);
    expect(w.byUrl(CREDITS_URL)).toHaveLength(1);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(1);
    // An endpoint removed after the routing: its delivery settles skipped, nothing sent.
    const next = w.publish('next', CREDIT, {});
    await deliverMessage(w.deps, { id: 'next', at: next }, 1, context);
    await w.endpoints.removeEndpoint(w.iban, 'org-1', CREDITS_ID);
    await w.run(next, 2);
    expect(await w.delivery(next, CREDITS_ID)).toMatchObject({ status: 'skipped', retries: 0 });
    expect(w.stored('next')).toMatchObject({ webhookStatus: 'success', webhookRetries: 1 });
  });

  it('redelivers the whole event: every routed endpoint gets a new cycle, the aggregate counted again', async () => {
    // Three attempts a cycle: the failing endpoint fails for good before its circuit opens.
    const w = await threeEndpoints({ maxAttempts: 3 });
    w.sender.answer = (request) => (request.url === CREDITS_URL ? answer(500) : ok());
    const credit = w.publish('credit', CREDIT, {});
    await w.run(credit, 10);
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 4 });
    // The receiver is fixed; the organization redelivers the event.
    w.sender.answer = () => ok();
    const redelivered = await redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'credit');
    expect(redelivered).toEqual({ queued: ['credit'] });
    await w.run(credit, 3);
    expect(w.byUrl(CREDITS_URL)).toHaveLength(4);
    expect(w.byUrl(DEFAULT_URL)).toHaveLength(2);
    expect(await w.delivery(credit, CREDITS_ID)).toMatchObject({
      status: 'success',
      retries: 4,
      cycleBase: 3,
      routeCycle: 1,
    });
    expect(await w.delivery(credit, DEFAULT_ID)).toMatchObject({
      status: 'success',
      retries: 2,
      cycleBase: 1,
    });
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'success', webhookRetries: 6, cycles: 2 });
  });

  it('tells the aggregate again when a message finds its delivery settled (a crash between the two writes)', async () => {
    const w = await threeEndpoints();
    const credit = w.publish('credit', CREDIT, {});
    const context = new DeliveryContext(w.directory, undefined, undefined, w.endpoints);
    expect((await deliverMessage(w.deps, { id: 'credit', at: credit }, 1, context)).kind).toBe('routed');
    // Both deliveries succeeded, and the consumers stopped before telling the event.
    for (const endpointId of [DEFAULT_ID, CREDITS_ID]) {
      const ref = { ...credit, sequence: credit.sequence ?? 0, endpointId };
      await w.deliveries.recordAttempt(
        ref,
        {
          deliveredAt: '2026-11-20T10:00:00.000Z',
          responseStatus: 200,
          responseBody: 'ok',
          responseTimeMs: 5,
        },
        'success',
      );
    }
    expect(w.stored('credit')?.webhookStatus).toBe('pending');
    // Their messages come back: nothing is sent again, and the event settles.
    await w.run(credit, 2);
    expect(w.sender.requests).toHaveLength(0);
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'success', webhookRetries: 2 });
  });

  it("settles a routed endpoint's dead letter with no attempt left, and requeues one with attempts", async () => {
    const w = await threeEndpoints();
    w.sender.answer = (request) => (request.url === CREDITS_URL ? answer(500) : ok());
    const credit = w.publish('credit', CREDIT, {});
    await w.run(credit, 2);
    // The default endpoint's delivery is counted on the event's item; the credits one waits for a retry.
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
    const reconcile = { ...w.deps, maxAttempts: 20 };
    // The event's own dead letter fans out again: its item's count is every endpoint's, not a cycle's.
    const own = { id: 'credit', at: credit };
    expect(await reconcileDeadLetter({ ...reconcile, maxAttempts: 1 }, own)).toBe('requeued');
    expect(w.stored('credit')?.webhookStatus).toBe('pending');
    // So does the consumer, handling it.
    const context = new DeliveryContext(w.directory, undefined, undefined, w.endpoints);
    expect((await deliverMessage({ ...w.deps, maxAttempts: 1 }, own, 1, context)).kind).toBe('routed');
    const target = { id: 'credit', at: credit, endpointId: CREDITS_ID };
    expect(await reconcileDeadLetter(reconcile, target)).toBe('requeued');
    expect(w.queue.sent.at(-1)).toMatchObject({ id: 'credit', endpointId: CREDITS_ID });
    expect(await reconcileDeadLetter({ ...reconcile, maxAttempts: 1 }, target)).toBe('exhausted');
    expect(await w.delivery(credit, CREDITS_ID)).toMatchObject({ status: 'failed', retries: 1 });
    expect(w.stored('credit')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 2 });
    // Announced as the routed endpoint's, once.
    expect(w.notices.notices.map((n) => [n.kind, n.endpointId, n.eventId, n.consecutiveFailures])).toEqual([
      ['event_attempts_exhausted', CREDITS_ID, 'credit', 1],
    ]);
  });

  it("announces a routed endpoint's spent cycle once, naming that endpoint and its own attempts", async () => {
    const w = await threeEndpoints({ maxAttempts: 1 });
    w.sender.answer = (request) => (request.url === CREDITS_URL ? answer(500) : ok());
    const credit = w.publish('credit', CREDIT, {});
    await w.run(credit, 3);
    expect(await w.delivery(credit, CREDITS_ID)).toMatchObject({ status: 'failed' });
    expect(w.notices.notices.map((n) => [n.kind, n.endpointId, n.eventId, n.consecutiveFailures])).toEqual([
      ['event_attempts_exhausted', CREDITS_ID, 'credit', 1],
    ]);
    expectNoticesInCatalog(w.notices.notices);
  });
});
