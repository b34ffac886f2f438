/**
 * Ordered delivery over a log with missing sequences (a hot log's ticket whose event is not stored yet,
 * or never will be), with the in-memory fakes: the gate waits while a publish may still store the
 * sequence, closes it with a void once it is old, and never moves the watermark past it before.
 */
import { describe, expect, it } from 'vitest';
import { HOLE_WAIT_MS } from '#config/limits';
import { deliverEvent } from '#delivery/deliver-event';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';

/** An ordered account whose log holds events (ids `e<n>`) at `sequences`, ticketed now. */
function holedWorld(sequences: readonly number[]): DeliveryWorld {
  const w = deliveryWorld();
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  w.directory.accounts.set(w.iban, { ...account, deliveryOrder: 'ordered' });
  for (const n of sequences) {
    w.events.seed({ id: `e${n}`, account: w.iban, sequence: n, ticketedAt: w.clock.now() });
  }
  return w;
}

function deliver(w: DeliveryWorld, id: string, receiveCount = 1): Promise<DeliveryOutcome> {
  const event = w.events.events.get(id);
  if (!event) throw new Error(`no ${id}`);
  const at = { id, orgId: event.orgId, account: event.account, sequence: event.sequence };
  return deliverEvent(w.deps, { id, at }, receiveCount);
}

const watermark = (w: DeliveryWorld) => w.directory.accounts.get(w.iban)?.settledThrough ?? 0;

describe('ordered delivery over missing sequences', () => {
  it('waits for a sequence a publish may still store, and delivers in order once it is stored', async () => {
    const w = holedWorld([1, 3]);
    expect((await deliver(w, 'e1')).kind).toBe('delivered');
    const waiting = await deliver(w, 'e3');
    expect(waiting).toMatchObject({ kind: 'waiting' });
    expect(watermark(w)).toBe(1);
    expect(w.events.numbering.voidsOf('org-1', w.iban)).toEqual([]);
    // The ticket's publish stores 2: it goes (right after the watermark), then 3.
    w.events.seed({ id: 'e2', account: w.iban, sequence: 2, ticketedAt: w.clock.now() });
    expect((await deliver(w, 'e2')).kind).toBe('delivered');
    expect((await deliver(w, 'e3', 2)).kind).toBe('delivered');
    expect(w.sender.requests.map((r) => JSON.parse(r.body).id)).toEqual(['e1', 'e2', 'e3']);
  });

  it('closes a sequence nobody stored once the ticket above it is old, and lets the next event go', async () => {
    const w = holedWorld([1, 4]);
    expect((await deliver(w, 'e1')).kind).toBe('delivered');
    expect((await deliver(w, 'e4')).kind).toBe('waiting');
    expect(watermark(w)).toBe(1);
    w.clock.advance(HOLE_WAIT_MS);
    expect((await deliver(w, 'e4', 2)).kind).toBe('delivered');
    expect(w.events.numbering.voidsOf('org-1', w.iban)).toEqual([2, 3]);
    expect(watermark(w)).toBe(4);
    // Closed: a publish that comes back for 2 cannot store there any more.
    const late = { id: 'late', orgId: 'org-1', account: w.iban, type: 't', triggeredAt: '', body: '{}' };
    expect(await w.events.insertEvent({ ...late, sequence: 2, webhookStatus: 'pending' })).toEqual({
      created: false,
    });
  });

  it('after a settle, moves the watermark up to a missing sequence but not past it', async () => {
    const w = holedWorld([1, 2, 4, 5]);
    // 4 and 5 wait; 1 and 2 settle.
    expect((await deliver(w, 'e4')).kind).toBe('waiting');
    expect((await deliver(w, 'e1')).kind).toBe('delivered');
    expect((await deliver(w, 'e2')).kind).toBe('delivered');
    expect(watermark(w)).toBe(2);
    // 4 was not sent again: 3 may still come.
    expect(w.queue.sent.map((m) => m.id)).toEqual([]);
  });

  it('passes a missing sequence below an event stored without a ticket (deleted by retention) at once', async () => {
    const w = holedWorld([1]);
    w.events.seed({ id: 'e3', account: w.iban, sequence: 3 });
    expect((await deliver(w, 'e1')).kind).toBe('delivered');
    expect((await deliver(w, 'e3')).kind).toBe('delivered');
    expect(w.events.numbering.voidsOf('org-1', w.iban)).toEqual([]);
  });
});
