/**
 * `event_attempts_exhausted` with fakes: stored when an event's delivery cycle at its endpoint settles
 * `failed`, by the consumer's last attempt, by a message that finds no attempt left, or by the dead-letter
 * reconciler; once per event, endpoint and cycle, however many of them settle it at once; a new cycle
 * is a new notice; nothing on a healthy delivery.
 */
import { describe, expect, it } from 'vitest';
import { reconcileDeadLetter } from '#delivery/dead-letter';
import { deliverEvent } from '#delivery/deliver-event';
import type { DeliveryAttempt } from '#domain/model';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';
import { expectNoticesInCatalog } from '../support/notice-schemas';

const ENDPOINT = 'ep_00000000000e';

/** `n` failed attempts, a minute apart from 09:00. */
function failed(n: number, from = 0): DeliveryAttempt[] {
  return Array.from({ length: n }, (_, i) => ({
    deliveredAt: new Date(Date.parse('2026-11-20T09:00:00.000Z') + (from + i) * 60_000).toISOString(),
    responseStatus: 500,
    responseBody: 'down',
    responseTimeMs: 5,
  }));
}

function world() {
  const w = deliveryWorld({ failureThreshold: 100 });
  w.directory.addAccount({
    iban: w.iban,
    webhookUrl: 'https://hooks.example.com/herald',
    endpointId: ENDPOINT,
  });
  return w;
}

describe('event_attempts_exhausted', () => {
  it('is stored once when the last attempt of the cycle fails, naming the event and the last answer', async () => {
    const w = world();
    w.events.seed({
      id: 'e1',
      type: 'credit_received',
      sequence: 7,
      webhookRetries: 19,
      deliveries: failed(19),
    });
    w.sender.answer = () => answer(503);
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('exhausted');
    expect(w.notices.notices).toEqual([
      expect.objectContaining({
        kind: 'event_attempts_exhausted',
        orgId: 'org-1',
        account: w.iban,
        endpointId: ENDPOINT,
        epoch: '2026-11-20T09:00:00.000Z',
        eventId: 'e1',
        eventType: 'credit_received',
        sequence: 7,
        consecutiveFailures: 20,
        lastAnswer: expect.objectContaining({ status: 503 }),
      }),
    ]);
    expectNoticesInCatalog(w.notices.notices);
    // The message again: the event is settled, nothing more.
    await deliverEvent(w.deps, { id: 'e1' });
    expect(w.notices.attempts).toHaveLength(1);
  });

  it('is stored once when the consumer and the dead-letter reconciler both find the cycle spent', async () => {
    const w = world();
    w.events.seed({ id: 'e1', webhookRetries: 20, deliveries: failed(20) });
    const reconcile = { ...w.deps, maxAttempts: 20 };
    await Promise.all([
      deliverEvent(w.deps, { id: 'e1' }),
      reconcileDeadLetter(reconcile, { id: 'e1' }),
      deliverEvent(w.deps, { id: 'e1' }),
    ]);
    expect(w.notices.notices.map((n) => [n.kind, n.eventId])).toEqual([['event_attempts_exhausted', 'e1']]);
    expect(w.notices.attempts.length).toBeGreaterThanOrEqual(2);
    expect((await w.events.getEvent('e1'))?.webhookStatus).toBe('failed');
    expectNoticesInCatalog(w.notices.notices);
  });

  it('is stored again for a new cycle of the same event (a redelivery), and never for a healthy delivery', async () => {
    const w = world();
    w.events.seed({ id: 'e1', webhookRetries: 20, deliveries: failed(20) });
    await deliverEvent(w.deps, { id: 'e1' });
    w.events.seed({ id: 'e1', webhookRetries: 40, cycleBase: 20, cycles: 2, deliveries: failed(40) });
    await deliverEvent(w.deps, { id: 'e1' });
    expect(w.notices.notices.map((n) => n.epoch)).toEqual([
      '2026-11-20T09:00:00.000Z',
      '2026-11-20T09:20:00.000Z',
    ]);
    expect(new Set(w.notices.notices.map((n) => n.id)).size).toBe(2);

    w.events.seed({ id: 'ok' });
    expect((await deliverEvent(w.deps, { id: 'ok' })).kind).toBe('delivered');
    expect(w.notices.attempts).toHaveLength(2);
  });

  it('is not stored for an event a 410 failed: the endpoint’s disabling tells it', async () => {
    const w = world();
    w.events.seed({ id: 'e1', webhookRetries: 19, deliveries: failed(19) });
    w.events.seed({ id: 'e2' });
    w.sender.answer = () => answer(410);
    await deliverEvent(w.deps, { id: 'e1' });
    await deliverEvent(w.deps, { id: 'e2' });
    expect(w.notices.notices.map((n) => n.kind)).toEqual(['endpoint_disabled']);
  });

  it('is stored by the reconciler alone for a dead letter whose cycle is spent', async () => {
    const w = world();
    w.events.seed({ id: 'e1', webhookRetries: 20, deliveries: failed(20) });
    expect(await reconcileDeadLetter({ ...w.deps, maxAttempts: 20 }, { id: 'e1' })).toBe('exhausted');
    expect(w.notices.notices.map((n) => [n.kind, n.endpointId, n.consecutiveFailures])).toEqual([
      ['event_attempts_exhausted', ENDPOINT, 20],
    ]);
  });
});
