/**
 * A pending event's next attempt brought forward on request (issue 16, item 5), with fakes: the message
 * the request sends and the one already queued make one attempt between them, a cycle never gets a 21st,
 * and `webhook_retries` always equals the number of recorded attempts.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import { ConflictError } from '#domain/errors';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

const HOUR = 3_600_000;

function failures(n: number) {
  return Array.from({ length: n }, () => ({
    deliveredAt: '2026-11-20T09:00:00.000Z',
    responseStatus: 500,
    responseBody: 'down',
    responseTimeMs: 5,
  }));
}

/** A pending event with `retries` failed attempts whose next one is due in an hour. */
function waiting(w: DeliveryWorld, retries: number): void {
  w.events.seed({
    id: 'e1',
    webhookRetries: retries,
    deliveries: failures(retries),
    nextAttemptAt: w.clock.now() + HOUR,
  });
}

function expectConsistent(w: DeliveryWorld): void {
  const event = w.events.events.get('e1');
  expect(event?.webhookRetries).toBe(event?.deliveries.length);
}

describe('bringing a pending event forward', () => {
  it('makes the next attempt now, once, however many copies of its message consumers get', async () => {
    const w = deliveryWorld();
    waiting(w, 3);
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'not-due' });
    expect(await redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'e1')).toEqual({
      queued: ['e1'],
    });
    expect(w.queue.sent).toEqual([{ id: 'e1', delaySeconds: 0 }]);
    // The request's message and the queued one, received by two consumers at once.
    const outcomes = await Promise.all([
      deliverEvent(w.deps, { id: 'e1' }),
      deliverEvent(w.deps, { id: 'e1' }),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['delivered', 'duplicate']);
    expect(w.sender.requests).toHaveLength(1);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 4 });
    expectConsistent(w);
    // The original message, back at its old time, finds the event delivered.
    w.clock.advance(HOUR);
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'dropped' });
    expect(w.sender.requests).toHaveLength(1);
  });

  it('uses the cycle’s last attempt and never makes a 21st', async () => {
    const w = deliveryWorld({ failureThreshold: 100 });
    waiting(w, 19);
    w.sender.answer = () => answer(500);
    await redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'e1');
    await Promise.all([deliverEvent(w.deps, { id: 'e1' }), deliverEvent(w.deps, { id: 'e1' })]);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 20 });
    // Failed now: a second request starts a new cycle instead, and another copy finds nothing to do.
    w.clock.advance(HOUR);
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'dropped' });
    expect(w.sender.requests).toHaveLength(1);
    expectConsistent(w);
  });

  it('brings an event with no attempt yet forward and queues it: its first attempt then takes the lease, one attempt', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    // It may have no message (a redelivery interrupted after its cycle started): one is sent.
    expect(await redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'e1')).toEqual({
      queued: ['e1'],
    });
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e1']);
    const outcomes = await Promise.all([
      deliverEvent(w.deps, { id: 'e1' }),
      deliverEvent(w.deps, { id: 'e1' }),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['delivered', 'duplicate']);
    expect(w.sender.requests).toHaveLength(1);
    expectConsistent(w);
  });

  it('leases a first attempt that was postponed (its next_attempt_at set) once it is brought forward', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1', nextAttemptAt: w.clock.now() + HOUR });
    await redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'e1');
    const outcomes = await Promise.all([
      deliverEvent(w.deps, { id: 'e1' }),
      deliverEvent(w.deps, { id: 'e1' }),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['delivered', 'duplicate']);
    expect(w.events.writes).toEqual(['BringForward', 'TakeLease', 'TakeLease', 'RecordAttempt']);
    expectConsistent(w);
  });

  it('answers 409 while a consumer holds the lease, and changes nothing', async () => {
    const w = deliveryWorld();
    waiting(w, 2);
    const event = w.events.events.get('e1');
    if (event) w.events.events.set('e1', { ...event, leaseUntil: w.clock.now() + 60_000 });
    await expect(redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'e1')).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(w.events.events.get('e1')?.nextAttemptAt).toBe(w.clock.now() + HOUR);
    expect(w.queue.sent).toEqual([]);
  });
});
