/**
 * Ordered delivery and restarted cycles (replay, redelivery) racing the gate, with the in-memory fakes:
 * each race is interleaved with explicit promises. The watermark only moves within one order epoch.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import type { Account } from '#domain/model';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import { replayAccount } from '#use-cases/events/replay';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';

/** Events 1..count, the first `settled` of them delivered; the account as given. */
function world(count: number, settled: number, account: Partial<Account>): DeliveryWorld {
  const w = deliveryWorld();
  const stored = w.directory.accounts.get(w.iban);
  if (!stored) throw new Error('no account');
  w.directory.accounts.set(w.iban, { ...stored, ...account });
  for (let n = 1; n <= count; n++) {
    const done = n <= settled ? { webhookStatus: 'success' as const, webhookRetries: 1 } : {};
    w.events.seed({ id: `e${n}`, account: w.iban, sequence: n, ...done });
  }
  return w;
}

function deliver(w: DeliveryWorld, id: string): Promise<DeliveryOutcome> {
  const event = w.events.events.get(id);
  if (!event) throw new Error(`no ${id}`);
  const at = { id, orgId: event.orgId, account: event.account, sequence: event.sequence };
  return deliverEvent(w.deps, { id, at });
}

/** What the replay and redelivery routes get. */
const admin = (w: DeliveryWorld) => ({
  events: w.events,
  queue: w.queue,
  directory: w.directory,
  now: w.clock.now,
});

/** Holds the next log read of the gate after it read, until `release` is called. */
function holdNextRead(w: DeliveryWorld): { read: Promise<void>; release: () => void } {
  const original = w.events.readLog.bind(w.events);
  let release = (): void => {};
  let reached = (): void => {};
  const read = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  w.events.readLog = async (...args) => {
    w.events.readLog = original;
    const found = await original(...args);
    reached();
    await gate;
    return found;
  };
  return { read, release };
}

describe('ordered delivery and restarted cycles', () => {
  it('a gate that read the log before a replay restarted an event neither moves the watermark past it nor goes', async () => {
    // The watermark lags: e1..e3 settled, W = 0. The replay of e2 cannot lower it, only restart the order.
    const w = world(4, 3, { deliveryOrder: 'ordered' });
    const held = holdNextRead(w);
    const gate = deliver(w, 'e4');
    await held.read;
    await replayAccount(admin(w), 'org-1', w.iban, 1);
    held.release();
    expect((await gate).kind).toBe('waiting');
    expect(w.directory.accounts.get(w.iban)?.settledThrough ?? 0).toBe(0);
    expect(w.sender.requests).toEqual([]);
    // The next look finds e2 pending again and waits for it; e2, then e3, then e4.
    expect((await deliver(w, 'e4')).kind).toBe('waiting');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
  });

  it('a redelivery restarts the order too, also while the watermark lags behind the event', async () => {
    const w = world(4, 3, { deliveryOrder: 'ordered', settledThrough: 1 });
    const held = holdNextRead(w);
    const gate = deliver(w, 'e4');
    await held.read;
    await redeliverEvent(admin(w), 'org-1', 'e3');
    held.release();
    expect((await gate).kind).toBe('waiting');
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
    expect(w.directory.accounts.get(w.iban)?.orderEpoch).toBe(1);
  });

  it('restarts the order of a concurrent account as well: it may become ordered while the cycles run', async () => {
    const w = world(6, 6, { settledThrough: 5 });
    await replayAccount(admin(w), 'org-1', w.iban, 1);
    expect(w.directory.accounts.get(w.iban)).toMatchObject({ settledThrough: 1, orderEpoch: 1 });
  });

  it('a put that makes the account ordered starts a new epoch: a gate of the earlier one cannot move the watermark', async () => {
    const w = world(3, 2, { deliveryOrder: 'ordered' });
    const held = holdNextRead(w);
    const gate = deliver(w, 'e3');
    await held.read;
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    await w.directory.putAccount({ ...account, deliveryOrder: 'ordered' });
    held.release();
    expect((await gate).kind).toBe('waiting');
    expect((await deliver(w, 'e3')).kind).toBe('delivered');
  });
});
