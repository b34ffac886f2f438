/**
 * deliverBatch and the dead-letter reconciler on the one batch path, with fakes: which messages are
 * kept, postponed, replaced by a fresh message, dropped or reconciled.
 */
import { describe, expect, it } from 'vitest';
import { reconcileBatch } from '#delivery/dead-letter';
import { deliverBatch } from '#delivery/deliver-batch';
import { encodeDeliveryMessage } from '#domain/delivery-message';
import type { QueueMessage } from '#domain/ports';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { answer } from '../support/fakes/webhook-sender';

describe('deliverBatch', () => {
  it('deletes delivered messages, keeps and postpones retries, drops malformed ones and in-batch duplicates', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'ok' });
    w.events.seed({ id: 'bad', account: 'DE02120300000000202051' });
    w.directory.addAccount({ iban: 'DE02120300000000202051', webhookUrl: 'https://bad.example.com/' });
    w.sender.answer = (request) => (request.url.includes('bad') ? answer(500) : answer(200));
    const keep = await deliverBatch(w.deps, [
      message('ok'),
      message('bad'),
      { ...message('ok'), messageId: 'copy' },
      { ...message('x'), body: 'not json' },
    ]);
    expect(keep).toEqual(['m-bad']);
    expect(w.queue.postponed).toEqual([{ receiptHandle: 'r-bad', seconds: 10 }]);
    expect(w.sender.requests).toHaveLength(2);
    expect(w.errors).toHaveLength(1);
  });

  it('postpones a deferred message by its visibility, with no attempt recorded', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    w.health.health.set(w.iban, {
      state: 'degraded',
      consecutiveFailures: 9,
      circuitOpenUntil: w.clock.now() + 60_000,
    });
    expect(await deliverBatch(w.deps, [message('e1')])).toEqual(['m-e1']);
    expect(w.queue.postponed).toEqual([{ receiptHandle: 'r-e1', seconds: 60 }]);
    expect(w.events.events.get('e1')).toMatchObject({ webhookRetries: 0, deliveries: [] });
  });

  it('replaces a message near the redrive limit by a fresh delayed one instead of postponing it', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    w.health.health.set(w.iban, {
      state: 'degraded',
      consecutiveFailures: 9,
      circuitOpenUntil: w.clock.now() + 3_600_000,
    });
    const keep = await deliverBatch(w.deps, [message('e1', { receiveCount: 18 })]);
    expect(keep).toEqual([]);
    expect(w.queue.postponed).toEqual([]);
    // SQS delays a new message by at most 15 min; it then waits out the rest as a deferral again.
    expect(w.queue.sent).toEqual([{ id: 'e1', delaySeconds: 900 }]);
  });

  it('replaces a message that would outlive the queue retention while it waits', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    w.sender.answer = () => answer(500);
    const sentAt = w.clock.now() - (13 * 24 * 3600 - 5) * 1000;
    expect(await deliverBatch(w.deps, [message('e1', { sentAt })])).toEqual([]);
    expect(w.queue.sent).toEqual([{ id: 'e1', delaySeconds: 10 }]);
    expect(w.events.events.get('e1')?.webhookRetries).toBe(1);
  });

  it('keeps a message whose handling throws, for the queue to bring back', async () => {
    const w = deliveryWorld();
    w.events.getEvent = () => Promise.reject(new Error('throttled'));
    expect(await deliverBatch(w.deps, [message('e1')])).toEqual(['m-e1']);
    expect(w.errors).toHaveLength(1);
  });
});

/** Reconciles the dead letters with at most 20 attempts a cycle; the outcomes seen, the messages kept. */
async function reconcile(w: ReturnType<typeof deliveryWorld>, messages: QueueMessage[]) {
  const seen: [string, string][] = [];
  const keep = await reconcileBatch(
    {
      events: w.events,
      deliveries: w.deliveries,
      queue: w.queue,
      directory: w.directory,
      maxAttempts: 20,
      now: w.clock.now,
      observe: (id, outcome) => seen.push([id, outcome]),
      observeError: () => undefined,
    },
    messages,
  );
  return { keep, seen };
}

describe('reconcileBatch', () => {
  it('requeues events with attempts left, fails exhausted ones, ignores settled ones', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'left', webhookRetries: 3 });
    w.events.seed({ id: 'none', webhookRetries: 20 });
    w.events.seed({ id: 'done', webhookStatus: 'success' });
    const { keep, seen } = await reconcile(w, [message('left'), message('none'), message('done')]);
    expect(keep).toEqual([]);
    expect(seen.sort()).toEqual([
      ['done', 'settled'],
      ['left', 'requeued'],
      ['none', 'exhausted'],
    ]);
    expect(w.queue.sent).toEqual([{ id: 'left', delaySeconds: 0 }]);
    expect(w.events.events.get('none')?.webhookStatus).toBe('failed');
  });

  it('counts a dead letter settled when another event holds its place in the log', async () => {
    const w = deliveryWorld();
    const now = w.events.seed({ id: 'now', sequence: 1, webhookRetries: 20 });
    const stale = encodeDeliveryMessage({ id: 'gone', orgId: now.orgId, account: now.account, sequence: 1 });
    const { keep, seen } = await reconcile(w, [{ ...message('gone'), body: stale }]);
    expect(keep).toEqual([]);
    expect(seen).toEqual([['gone', 'settled']]);
    // Not the other event: it is neither failed nor sent again.
    expect(w.events.events.get('now')?.webhookStatus).toBe('pending');
    expect(w.queue.sent).toEqual([]);
  });

  it('settles a final failure of an ordered account in order: the watermark moves, the waiting event is sent', async () => {
    const w = deliveryWorld();
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    w.directory.accounts.set(w.iban, { ...account, deliveryOrder: 'ordered' });
    w.events.seed({ id: 'e1', account: w.iban, sequence: 1, webhookRetries: 20 });
    // e2 was skipped meanwhile; e3 waits (marked by the gate): the chain passes e2 and sends e3.
    w.events.seed({ id: 'e2', account: w.iban, sequence: 2, webhookStatus: 'skipped' });
    w.events.seed({ id: 'e3', account: w.iban, sequence: 3, nextAttemptAt: w.clock.now() });
    const at = { id: 'e1', orgId: 'org-1', account: w.iban, sequence: 1 };
    const { keep, seen } = await reconcile(w, [message(at, { receiveCount: 20 })]);
    expect(keep).toEqual([]);
    expect(seen).toEqual([['e1', 'exhausted-ordered']]);
    expect(w.events.events.get(at.id)?.webhookStatus).toBe('failed');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(2);
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e3']);
  });
});
