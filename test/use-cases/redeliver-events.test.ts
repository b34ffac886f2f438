/** Redelivery cycles with fakes: a new cycle per redeliver, the cycle cap, conflicts and lost messages. */
import { describe, expect, it } from 'vitest';
import { RESET_CHUNK } from '#config/limits';
import { ConflictError, NotFoundError } from '#domain/errors';
import { redeliverEvent, requeuePending } from '#use-cases/events/redeliver-events';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';
import { FakeDeliveryQueue } from '../support/fakes/delivery-queue';
import { InMemoryEventStore } from '../support/fakes/event-store';

function world() {
  const events = new InMemoryEventStore();
  const queue = new FakeDeliveryQueue();
  return { events, queue, deps: { events, queue } };
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

  it('refuses a fourth cycle, a delivered or pending event, and hides other organizations’ events', async () => {
    const { events, deps } = world();
    events.seed({ id: 'full', webhookStatus: 'failed', webhookRetries: 60 });
    events.seed({ id: 'done', webhookStatus: 'success' });
    events.seed({ id: 'busy', webhookRetries: 2 });
    events.seed({ id: 'theirs', orgId: 'org-2', webhookStatus: 'failed' });
    await expect(redeliverEvent(deps, 'org-1', 'full')).rejects.toThrow(ConflictError);
    await expect(redeliverEvent(deps, 'org-1', 'done')).rejects.toThrow(/already delivered/);
    await expect(redeliverEvent(deps, 'org-1', 'busy')).rejects.toThrow(/being delivered/);
    await expect(redeliverEvent(deps, 'org-1', 'theirs')).rejects.toThrow(NotFoundError);
  });

  it('queues again a started cycle whose message was lost (no attempt yet)', async () => {
    const { events, queue, deps } = world();
    events.seed({ id: 'e1', webhookRetries: 20, cycleBase: 20 });
    expect(await redeliverEvent(deps, 'org-1', 'e1')).toEqual({ queued: ['e1'] });
    expect(queue.sent).toHaveLength(1);
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
      events.seed({ id: `full${i}`, webhookStatus: 'failed', webhookRetries: 60, triggeredAt: at(1) });
    }
    expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: [], more: true });
    expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: ['older'], more: false });
    expect(await resetWebhooks(deps, 'org-1')).toEqual({ queued: [], more: false });
    expect(events.writes.filter((write) => write === 'LeaveStatusIndexes')).toHaveLength(RESET_CHUNK);
    expect(events.events.get('full0')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 60 });
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
