/**
 * Ordered delivery (`delivery_order: ordered`) with the in-memory fakes: the sequence gate, the watermark,
 * the chain to the next waiting event, a final failure letting the next go, a stalled head sent again, a
 * switch to ordered on a long history, and concurrent accounts untouched.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import { ORDER_GATE_FIRST_WINDOW, ORDER_GATE_WINDOW, ORDER_GATE_WINDOWS } from '#delivery/order-rule';
import type { Account } from '#domain/model';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

/** A world whose account delivers in order, with pending events of sequences 1..count (ids `e<n>`). */
function orderedWorld(count: number, ordered = true): DeliveryWorld {
  const w = deliveryWorld();
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  if (ordered) w.directory.accounts.set(w.iban, { ...account, deliveryOrder: 'ordered' });
  for (let n = 1; n <= count; n++) w.events.seed({ id: `e${n}`, account: w.iban, sequence: n });
  return w;
}

/** Delivers the message of event `id` as the forwarder sends it: `{id, log, seq}`. */
function deliver(w: DeliveryWorld, id: string, receiveCount = 1): Promise<DeliveryOutcome> {
  const event = w.events.events.get(id);
  if (!event) throw new Error(`no ${id}`);
  const at = { id, orgId: event.orgId, account: event.account, sequence: event.sequence };
  return deliverEvent(w.deps, { id, at }, receiveCount);
}

const watermark = (w: DeliveryWorld) => w.directory.accounts.get(w.iban)?.settledThrough ?? 0;

/** Sets fields of the world's account. */
function setAccount(w: DeliveryWorld, fields: Partial<Account>): void {
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  w.directory.accounts.set(w.iban, { ...account, ...fields });
}

describe('ordered delivery', () => {
  it('holds an event until the earlier one settles, then moves the watermark and sends the next at once', async () => {
    const w = orderedWorld(3);
    expect((await deliver(w, 'e2')).kind).toBe('waiting');
    expect(w.sender.requests).toHaveLength(0);
    // Nothing recorded; marked so that its attempt takes the lease.
    expect(w.events.events.get('e2')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0 });
    expect(w.events.events.get('e2')?.nextAttemptAt).toBe(w.clock.now());

    expect((await deliver(w, 'e1')).kind).toBe('delivered');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
    // The chain: the waiting event is sent again now, not after its wait.
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e2']);

    w.events.writes.length = 0;
    expect((await deliver(w, 'e2')).kind).toBe('delivered');
    expect(w.events.writes).toEqual(['TakeLease', 'RecordAttempt']);
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(2);
    // e3 was never looked at by the gate: its own message brings it, no second one is sent.
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e2']);
    expect((await deliver(w, 'e3')).kind).toBe('delivered');
    expect(w.sender.requests.map((r) => JSON.parse(r.body).id)).toEqual(['e1', 'e2', 'e3']);
  });

  it('lets the next events go after a final failure, and says the failure was in order', async () => {
    const w = orderedWorld(2);
    w.sender.answer = () => answer(500);
    const base = w.events.events.get('e1');
    if (!base) throw new Error('no e1');
    // 19 attempts recorded: the next failure is the cycle's last.
    w.events.events.set('e1', {
      ...base,
      webhookRetries: 19,
      deliveries: Array.from({ length: 19 }, () => ({
        deliveredAt: '2026-11-20T09:00:00.000Z',
        responseStatus: 500,
        responseBody: '',
        responseTimeMs: 1,
      })),
    });
    expect((await deliver(w, 'e2')).kind).toBe('waiting');
    const failed = await deliver(w, 'e1');
    expect(failed).toMatchObject({ kind: 'exhausted', ordered: true });
    expect(w.events.events.get('e1')?.webhookStatus).toBe('failed');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
    w.sender.answer = () => answer(200);
    expect((await deliver(w, 'e2')).kind).toBe('delivered');
  });

  it('sends a stalled earlier event again from a message that already waited', async () => {
    const w = orderedWorld(2);
    expect((await deliver(w, 'e2', 1)).kind).toBe('waiting');
    expect(w.queue.sent).toEqual([]);
    expect((await deliver(w, 'e2', 2)).kind).toBe('waiting');
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e1']);
    // Not while an attempt of it is under way (its lease is live).
    const e1 = w.events.events.get('e1');
    if (!e1) throw new Error('no e1');
    w.events.events.set('e1', { ...e1, leaseUntil: w.clock.now() + 60_000 });
    expect((await deliver(w, 'e2', 3)).kind).toBe('waiting');
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e1']);
  });

  it('catches the watermark up over a settled history a window at a time, at a bounded cost per look', async () => {
    const perLook = ORDER_GATE_FIRST_WINDOW + (ORDER_GATE_WINDOWS - 1) * ORDER_GATE_WINDOW;
    const history = perLook + 10;
    const w = orderedWorld(history + 1);
    for (let n = 1; n <= history; n++) {
      const event = w.events.events.get(`e${n}`);
      if (event) w.events.events.set(`e${n}`, { ...event, webhookStatus: 'success' });
    }
    expect((await deliver(w, `e${history + 1}`)).kind).toBe('waiting');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(perLook);
    // Small first, wider after: an event waiting right behind the watermark costs a one-item read.
    expect(w.events.logEntryReads).toEqual([1, 100, 100]);
    expect((await deliver(w, `e${history + 1}`)).kind).toBe('delivered');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(history + 1);
  });

  it('reads on past a read its page cut (large items): never takes the cut for the end of the log', async () => {
    const w = orderedWorld(40);
    setAccount(w, { settledThrough: 18 });
    for (let n = 19; n <= 30; n++) {
      const event = w.events.events.get(`e${n}`);
      if (event) w.events.events.set(`e${n}`, { ...event, webhookStatus: 'success' });
    }
    // 31–39 pending; a page of the log holds four items, as 1 MB of items with long attempt histories.
    w.events.logEntryPageItems = 4;
    // A look reads three windows: 19, then two pages of four.
    expect(await deliver(w, 'e40', 2)).toMatchObject({
      kind: 'waiting',
      reason: expect.stringContaining('27'),
    });
    expect(watermark(w)).toBe(27);
    expect(await deliver(w, 'e40', 2)).toMatchObject({ reason: 'ordered: waits for sequence 31 to settle' });
    expect(watermark(w)).toBe(30);
    expect(w.sender.requests).toEqual([]);
  });

  it('marks a waiting event once: a later look writes nothing but what the watermark needs', async () => {
    const w = orderedWorld(2);
    expect((await deliver(w, 'e2', 1)).kind).toBe('waiting');
    expect(w.events.writes).toEqual(['MarkWaiting']);
    w.clock.advance(5_000);
    expect((await deliver(w, 'e2', 2)).kind).toBe('waiting');
    expect(w.events.writes).toEqual(['MarkWaiting']);
    expect(w.events.logEntryReads).toEqual([1, 1]);
  });

  it('leaves concurrent accounts alone: no gate, no watermark, no extra write', async () => {
    const w = orderedWorld(2, false);
    expect((await deliver(w, 'e2')).kind).toBe('delivered');
    expect(w.events.writes).toEqual(['RecordAttempt']);
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBeUndefined();
    expect(w.queue.sent).toEqual([]);
  });

  it('settles a skipped event in order too: an account without URL lets the next one go', async () => {
    const w = orderedWorld(2);
    expect((await deliver(w, 'e2')).kind).toBe('waiting');
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    w.directory.accounts.set(w.iban, { ...account, webhookUrl: undefined });
    expect((await deliver(w, 'e1')).kind).toBe('skipped');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e2']);
  });

  it('passes over sequences missing below the first event of the log (retention deleted them)', async () => {
    const w = orderedWorld(5);
    w.events.events.delete('e1');
    w.events.events.delete('e2');
    // e3 pending: e4 waits for it, not for the deleted ones, and the watermark moves over the gap.
    expect((await deliver(w, 'e4')).kind).toBe('waiting');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(2);
    expect((await deliver(w, 'e3')).kind).toBe('delivered');
    expect((await deliver(w, 'e4')).kind).toBe('delivered');
    // A gap between two events of the log too.
    w.events.events.delete('e5');
    w.events.seed({ id: 'e7', account: w.iban, sequence: 7 });
    expect((await deliver(w, 'e7')).kind).toBe('delivered');
    expect(w.sender.requests.map((r) => JSON.parse(r.body).id)).toEqual(['e3', 'e4', 'e7']);
  });

  it('starts above the sequence floor: the first event after it goes without a read', async () => {
    const w = orderedWorld(0);
    setAccount(w, { sequenceFloor: 40 });
    w.events.seed({ id: 'e41', account: w.iban, sequence: 41 });
    w.events.seed({ id: 'e42', account: w.iban, sequence: 42 });
    expect((await deliver(w, 'e42')).kind).toBe('waiting');
    expect((await deliver(w, 'e41')).kind).toBe('delivered');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(41);
    expect((await deliver(w, 'e42')).kind).toBe('delivered');
  });

  it('chains past events settled meanwhile to the next waiting one, and moves the watermark up to it', async () => {
    const w = orderedWorld(3);
    expect((await deliver(w, 'e3')).kind).toBe('waiting');
    const e2 = w.events.events.get('e2');
    if (!e2) throw new Error('no e2');
    w.events.events.set('e2', { ...e2, webhookStatus: 'skipped' });
    expect((await deliver(w, 'e1')).kind).toBe('delivered');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(2);
    expect(w.queue.sent.map((m) => m.id)).toEqual(['e3']);
  });
});
