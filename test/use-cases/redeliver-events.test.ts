/**
 * Redelivery with fakes: a new cycle per redeliver of a failed or skipped event, the next attempt brought
 * forward for a pending one, the cycle cap, conflicts and lost messages.
 */
import { describe, expect, it } from 'vitest';
import { RESET_CHUNK } from '#config/limits';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { DeliveryAttempt } from '#domain/model';
import { redeliverEvent, requeuePending } from '#use-cases/events/redeliver-events';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';
import { fakeClock } from '../support/fakes/clock';
import { FakeDeliveryQueue } from '../support/fakes/delivery-queue';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

function answered(status: number): DeliveryAttempt {
  return {
    deliveredAt: '2026-11-20T09:00:01.000Z',
    responseStatus: status,
    responseBody: '',
    responseTimeMs: 5,
  };
}

function world() {
  const events = new InMemoryEventStore();
  const queue = new FakeDeliveryQueue();
  const clock = fakeClock();
  const directory = new InMemoryDirectoryStore();
  return { events, queue, clock, directory, deps: { events, queue, directory, now: clock.now } };
}

describe('redeliverEvent', () => {
  it('starts a new cycle for a failed event and queues it; earlier attempts stay counted', async () => {
    const { events, queue, deps } = world();
    events.seed({ id: 'e1', webhookStatus: 'failed', webhookRetries: 20 });
    expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
    expect(events.events.get('e1')).toMatchObject({
      webhookStatus: 'pending',
      cycleBase: 20,
      webhookRetries: 20,
    });
    expect(queue.sent).toEqual([{ id: 'e1', delaySeconds: 0 }]);
  });

  it('refuses a fourth cycle and one under way, and hides other organizations’ events', async () => {
    const { events, deps, clock } = world();
    events.seed({ id: 'full', webhookStatus: 'failed', webhookRetries: 60, cycleBase: 40, cycles: 3 });
    events.seed({ id: 'done', webhookStatus: 'success' });
    events.seed({ id: 'busy', webhookRetries: 2, leaseUntil: clock.now() + 60_000 });
    events.seed({ id: 'theirs', orgId: 'org-2', webhookStatus: 'failed' });
    events.seed({ id: 'their-pending', orgId: 'org-2', webhookRetries: 2, nextAttemptAt: clock.now() + 1e6 });
    await expect(redeliverEvent(deps, 'org-1', 'full')).rejects.toThrow(ConflictError);
    // A delivered event starts a new cycle (within the cap): it is sent again.
    expect(await redeliverEvent(deps, 'org-1', 'done')).toEqual({ queued: ['done'] });
    expect(events.events.get('done')).toMatchObject({ webhookStatus: 'pending', cycleBase: 0 });
    await expect(redeliverEvent(deps, 'org-1', 'busy')).rejects.toThrow(/under way right now/);
    await expect(redeliverEvent(deps, 'org-1', 'theirs')).rejects.toThrow(NotFoundError);
    await expect(redeliverEvent(deps, 'org-1', 'their-pending')).rejects.toThrow(NotFoundError);
    expect(events.events.get('their-pending')?.nextAttemptAt).toBe(clock.now() + 1e6);
  });

  it('gives a delivered event two more cycles, one attempt each, and refuses a fourth', async () => {
    const { events, queue, deps } = world();
    const delivered = events.seed({ id: 'e1', webhookStatus: 'success', webhookRetries: 1 });
    for (let cycle = 2; cycle <= 3; cycle++) {
      expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
      expect(events.events.get('e1')).toMatchObject({ webhookStatus: 'pending', cycles: cycle });
      await events.recordAttempt(delivered, answered(200), 'success');
    }
    await expect(redeliverEvent(deps, 'org-1', 'e1')).rejects.toThrow(/used all 3 delivery cycles/);
    expect(queue.sent).toHaveLength(2);
    expect(events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 3, cycles: 3 });
  });

  it('counts no cycle that sent nothing: a skipped event keeps its three for when it can be delivered', async () => {
    const { events, queue, deps } = world();
    const skipped = events.seed({ id: 'e1', webhookStatus: 'skipped' });
    for (let reset = 0; reset < 5; reset++) {
      expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: ['e1'], more: false });
      // The consumer finds no URL again: skipped, nothing sent.
      await events.settlePending(skipped, 'skipped');
    }
    expect(events.events.get('e1')).toMatchObject({ webhookRetries: 0, cycles: 1 });
    expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
    await events.recordAttempt(skipped, answered(200), 'success');
    for (let cycle = 2; cycle <= 3; cycle++) {
      expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
      await events.recordAttempt(skipped, answered(200), 'success');
    }
    await expect(redeliverEvent(deps, 'org-1', 'e1')).rejects.toThrow(ConflictError);
    expect(events.events.get('e1')).toMatchObject({ webhookRetries: 3, cycles: 3 });
    expect(queue.sent).toHaveLength(8);
  });

  it('brings a pending event’s next attempt forward to now with one write and one message', async () => {
    const { events, queue, deps, clock } = world();
    events.seed({ id: 'e1', webhookRetries: 3, deliveries: [], nextAttemptAt: clock.now() + 3_600_000 });
    expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
    expect(events.events.get('e1')).toMatchObject({
      webhookStatus: 'pending',
      webhookRetries: 3,
      cycleBase: 0,
    });
    expect(events.events.get('e1')?.nextAttemptAt).toBe(clock.now());
    expect(events.writes).toEqual(['BringForward']);
    expect(queue.sent).toEqual([{ id: 'e1', delaySeconds: 0 }]);
  });

  it('queues again a started cycle whose message was lost (no attempt yet)', async () => {
    const { events, queue, deps } = world();
    events.seed({ id: 'e1', webhookRetries: 20, cycleBase: 20 });
    expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
    expect(queue.sent).toHaveLength(1);
  });
});

describe('an interrupted redelivery', () => {
  it('queues the event whose cycle started even when restarting the order throws, then says so', async () => {
    const { events, queue, directory, deps } = world();
    // Skipped at publish (no URL yet): its new cycle replaces the empty one and makes no attempt.
    events.seed({ id: 'e1', webhookStatus: 'skipped', sequence: 1 });
    directory.restartOrder = () => Promise.reject(new Error('throttled'));
    await expect(redeliverEvent(deps, 'org-1', 'e1')).rejects.toThrow(/throttled/);
    expect(events.events.get('e1')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0 });
    expect(queue.sent.map((m) => m.id)).toEqual(['e1']);
  });

  it('queues a pending event with no attempt yet when asked again: never answers 202 without a message', async () => {
    const { events, queue, deps } = world();
    events.seed({ id: 'e1', webhookStatus: 'skipped' });
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueue = () => Promise.reject(new Error('SQS unavailable'));
    await expect(redeliverEvent(deps, 'org-1', 'e1')).rejects.toThrow(/SQS/);
    expect(events.events.get('e1')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0 });
    queue.enqueue = enqueue;
    expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
    expect(queue.sent.map((m) => m.id)).toEqual(['e1']);
  });

  it('queues the cycles of a chunk that started when another start throws, then throws', async () => {
    const { events, queue, deps } = world();
    for (const id of ['a', 'b', 'c']) events.seed({ id, webhookStatus: 'failed', webhookRetries: 20 });
    const startCycle = events.startCycle;
    events.startCycle = (ref, orgId) =>
      ref.id === 'b' ? Promise.reject(new Error('throttled')) : startCycle(ref, orgId);
    await expect(resetWebhooks(deps, 'org-1')).rejects.toThrow(/throttled/);
    const started = ['a', 'b', 'c'].filter((id) => events.events.get(id)?.webhookStatus === 'pending');
    expect(started.sort()).toEqual(['a', 'c']);
    expect(queue.sent.map((m) => m.id).sort()).toEqual(['a', 'c']);
  });
});

describe('resetWebhooks and requeuePending', () => {
  it('restarts every failed and skipped event of the organization and nothing else', async () => {
    const { events, queue, deps } = world();
    events.seed({ id: 'f', webhookStatus: 'failed', webhookRetries: 20 });
    events.seed({ id: 's', webhookStatus: 'skipped' });
    events.seed({ id: 'ok', webhookStatus: 'success' });
    events.seed({ id: 'other', orgId: 'org-2', webhookStatus: 'failed' });
    const { queued, more } = await resetWebhooks(deps, 'org-1');
    expect(queued.sort()).toEqual(['f', 's']);
    expect(more).toBe(false);
    expect(queue.sent.map((m) => m.id).sort()).toEqual(['f', 's']);
  });

  it('walks past a whole chunk of events with no cycle left: they leave the index, more ends', async () => {
    const { events, deps } = world();
    const at = (minute: number) => `2026-11-20T09:${String(minute).padStart(2, '0')}:00.000Z`;
    events.seed({ id: 'older', webhookStatus: 'failed', webhookRetries: 20, triggeredAt: at(0) });
    // Newer than it, more than a chunk: events that used all three cycles.
    for (let i = 0; i < RESET_CHUNK; i++) {
      events.seed({
        id: `full${i}`,
        webhookStatus: 'failed',
        webhookRetries: 60,
        cycleBase: 40,
        cycles: 3,
        triggeredAt: at(1),
      });
    }
    expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: [], more: true });
    expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: ['older'], more: false });
    expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: [], more: false });
    expect(events.writes.filter((write) => write === 'LeaveStatusIndexes')).toHaveLength(RESET_CHUNK);
    expect(events.events.get('full0')).toMatchObject({
      webhookStatus: 'failed',
      webhookRetries: 60,
      cycleBase: 40,
      cycles: 3,
    });
  });

  it('requeues pending events triggered up to a time', async () => {
    const { events, deps } = world();
    events.seed({ id: 'old', triggeredAt: '2026-11-20T08:00:00.000Z' });
    events.seed({ id: 'new', triggeredAt: '2026-11-20T09:59:00.000Z' });
    expect(await requeuePending(deps, 'org-1', '2026-11-20T09:00:00.000Z')).toEqual({
      queued: ['old'],
      more: false,
    });
  });
});
