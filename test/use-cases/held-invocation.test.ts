/**
 * deliverBatch while a slow attempt holds the invocation, with fakes and the injected clock: it pulls
 * more messages and delivers them before the slow attempt ends, postpones pulled messages to the held
 * endpoint without an attempt, stops pulling near its deadline, and settles every pulled message once.
 */
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import { deliverBatch } from '#delivery/deliver-batch';
import type { SendResult } from '#domain/ports';
import { message } from '../support/fakes/delivery-queue';
import { answer, ok } from '../support/fakes/webhook-sender';
import {
  delivered,
  expectInvariants,
  HANGING,
  HANGING_IBAN,
  heldWorld,
  TIMEOUT_MS,
  until,
} from '../support/held-world';

describe('deliverBatch held by a slow attempt', () => {
  it('pulls and delivers another account’s message before the hanging attempt ends', async () => {
    const { w, deps, pending, timeOut } = heldWorld();
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    w.events.seed({ id: 'fast-1' });
    w.queue.visible.push(message('fast-1'));
    const run = deliverBatch(deps, [message('hang-1')]);
    await until(() => delivered(w, 'fast-1'));
    // The hanging attempt is still in flight: the fast account did not wait for its timeout.
    expect(pending).toHaveLength(1);
    expect(w.queue.deleted).toEqual(['r-fast-1']);
    timeOut();
    // The batch's own message is kept for its retry, as without pulling.
    expect(await run).toEqual(['m-hang-1']);
    expect(w.events.events.get('hang-1')).toMatchObject({ webhookRetries: 1 });
    expectInvariants(w);
  });

  it('postpones a pulled message to the endpoint held here without an attempt, and settles each pulled message once', async () => {
    const { w, deps, pending, timeOut } = heldWorld();
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    w.events.seed({ id: 'hang-2', account: HANGING_IBAN });
    w.events.seed({ id: 'fast-1' });
    w.events.seed({ id: 'fast-2' });
    w.events.seed({ id: 'failing', account: 'FR1420041010050500013M02606' });
    w.directory.addAccount({ iban: 'FR1420041010050500013M02606', webhookUrl: 'https://down.example.com/' });
    const failing = w.sender.answer;
    w.sender.answer = (request) => (request.url.includes('down') ? answer(500) : failing(request));
    const start = w.clock.now();
    w.queue.visible.push(
      message('fast-1'),
      message('failing'),
      // A second message for the batch's own event, and one nothing can read.
      { ...message('hang-1'), messageId: 'copy', receiptHandle: 'r-copy' },
      { ...message('x'), messageId: 'bad', receiptHandle: 'r-bad', body: 'not json' },
    );
    const run = deliverBatch(deps, [message('hang-1')]);
    await until(() => w.queue.deleted.length === 3);
    // Once the hanging attempt has been in flight for `heldAfterMs` without an answer, its URL is held here.
    await until(() => w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
    w.queue.visible.push(message('hang-2'), message('fast-2'));
    await until(
      () => delivered(w, 'fast-2') && w.queue.postponed.some((p) => p.receiptHandle === 'r-hang-2'),
    );
    expect(pending).toHaveLength(1);
    // The held URL's pulled message waits until the hanging attempt must have timed out: no attempt.
    expect(w.queue.postponed.find((p) => p.receiptHandle === 'r-hang-2')?.seconds).toBeGreaterThanOrEqual(10);
    expect(w.events.events.get('hang-2')).toMatchObject({ webhookRetries: 0, deliveries: [] });
    expect(w.sender.requests.filter((r) => r.url === HANGING)).toHaveLength(1);
    timeOut();
    await run;
    // Every pulled message exactly once: deleted when done, postponed (kept) when it waits.
    const deleted = [...w.queue.deleted].sort();
    expect(deleted).toEqual(['r-bad', 'r-copy', 'r-fast-1', 'r-fast-2'].sort());
    const postponedPulled = w.queue.postponed.map((p) => p.receiptHandle).filter((h) => h !== 'r-hang-1');
    expect(postponedPulled.sort()).toEqual(['r-failing', 'r-hang-2']);
    expect(new Set([...deleted, ...postponedPulled]).size).toBe(deleted.length + postponedPulled.length);
    expectInvariants(w);
  });

  it('attempts a pulled message whose URL is slow but answered here since (busy, not hanging)', async () => {
    const { w, deps, pending, timeOut } = heldWorld();
    for (const id of ['hang-1', 'hang-2', 'hang-3']) w.events.seed({ id, account: HANGING_IBAN });
    const start = w.clock.now();
    const run = deliverBatch(deps, [message('hang-1'), message('hang-2')]);
    await until(() => pending.length === 2 && w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
    // One of the two answers after a second: the receiver is slow, but it answers.
    pending.shift()?.(ok(1_000));
    w.queue.visible.push(message('hang-3'));
    await until(() => pending.length === 2);
    expect(w.sender.requests.filter((r) => r.url === HANGING)).toHaveLength(3);
    expect(w.queue.postponed.map((p) => p.receiptHandle)).not.toContain('r-hang-3');
    timeOut();
    await run;
    expectInvariants(w);
  });

  it('postpones a pulled message to a URL that answered here in slowMs or more, without an attempt or a slot', async () => {
    const { w, deps, pending, timeOut } = heldWorld();
    for (const id of ['hang-1', 'hang-2', 'hang-3']) w.events.seed({ id, account: HANGING_IBAN });
    const start = w.clock.now();
    const run = deliverBatch(deps, [message('hang-1'), message('hang-2')]);
    await until(() => pending.length === 2 && w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
    // One of the two answers after 3 s: the receiver is slow (degraded), not hanging.
    pending.shift()?.(ok(3_000));
    w.queue.visible.push(message('hang-3'));
    await until(() => w.queue.postponed.some((p) => p.receiptHandle === 'r-hang-3'));
    // A slow endpoint's busy deferral (four answers' time), no request, no attempt, no slot taken.
    expect(w.queue.postponed.find((p) => p.receiptHandle === 'r-hang-3')?.seconds).toBeGreaterThanOrEqual(12);
    expect(w.sender.requests.filter((r) => r.url === HANGING)).toHaveLength(2);
    expect(w.events.events.get('hang-3')).toMatchObject({ webhookRetries: 0, deliveries: [] });
    // The slow answer's own writes (degraded, and the fake account's endpoint id); no slot.
    expect(w.health.writes).not.toContain('take-slot');
    expect(w.health.writes).toContain('record-success');
    timeOut();
    await run;
    expectInvariants(w);
  });

  it('handles a message that comes back into the same invocation again, never dropping it as a copy', async () => {
    const { w, deps, timeOut } = heldWorld();
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    w.events.seed({ id: 'hang-2', account: HANGING_IBAN });
    w.events.seed({ id: 'fast-1' });
    const start = w.clock.now();
    const run = deliverBatch(deps, [message('hang-1')]);
    await until(() => w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
    // A pulled message for the held URL waits (postponed, kept); a pulled one whose read throws comes back soon.
    let reads = 0;
    const read = w.events.getEvent.bind(w.events);
    w.events.getEvent = (id, ...rest) =>
      id === 'fast-1' && ++reads === 1 ? Promise.reject(new Error('throttled')) : read(id, ...rest);
    w.queue.visible.push(message('hang-2'), message('fast-1'));
    await until(() => w.queue.postponed.filter((p) => p.receiptHandle !== 'r-hang-1').length === 2);
    // Both visible again while the invocation still pulls: the same messages, new receipt handles.
    w.queue.visible.push(
      message('hang-2', { receiptHandle: 'r-hang-2-again', receiveCount: 2 }),
      message('fast-1', { receiptHandle: 'r-fast-1-again', receiveCount: 2 }),
    );
    await until(() => delivered(w, 'fast-1'));
    await until(() => w.queue.postponed.some((p) => p.receiptHandle === 'r-hang-2-again'));
    expect(w.queue.deleted).toEqual(['r-fast-1-again']);
    timeOut();
    await run;
    expect(w.events.events.get('hang-2')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0 });
    expectInvariants(w);
  });

  it('replaces a pulled message near the redrive limit instead of postponing it again', async () => {
    const { w, deps, timeOut } = heldWorld();
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    w.events.seed({ id: 'hang-2', account: HANGING_IBAN });
    const start = w.clock.now();
    const run = deliverBatch(deps, [message('hang-1')]);
    await until(() => w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
    w.queue.visible.push(message('hang-2', { receiveCount: 18 }));
    await until(() => w.queue.deleted.length === 1);
    expect(w.queue.deleted).toEqual(['r-hang-2']);
    expect(w.queue.sent.map((s) => s.id)).toEqual(['hang-2']);
    timeOut();
    await run;
    expect(w.events.events.get('hang-2')?.webhookRetries).toBe(0);
  });

  it('keeps pulling after its batch settled while a pulled attempt still hangs, then stops', async () => {
    const { w, deps } = heldWorld();
    const other = 'https://also-hanging.example.com/hook';
    w.directory.addAccount({ iban: 'FR1420041010050500013M02606', webhookUrl: other });
    const open = new Map<string, (result: SendResult) => void>();
    w.sender.answer = (request) =>
      request.url === HANGING || request.url === other
        ? new Promise<SendResult>((resolve) => open.set(request.url, resolve))
        : ok();
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    w.events.seed({ id: 'other-1', account: 'FR1420041010050500013M02606' });
    w.events.seed({ id: 'fast-1' });
    w.queue.visible.push(message('other-1'));
    const run = deliverBatch(deps, [message('hang-1')]);
    await until(() => open.has(other));
    // The batch's own attempt ends (a timeout); the pulled one still hangs.
    open.get(HANGING)?.(answer(0, undefined, TIMEOUT_MS));
    await until(() => w.events.events.get('hang-1')?.webhookRetries === 1);
    w.queue.visible.push(message('fast-1'));
    await until(() => delivered(w, 'fast-1'));
    expect(w.queue.deleted).toContain('r-fast-1');
    const receives = w.queue.receiveWaits.length;
    open.get(other)?.(answer(0, undefined, TIMEOUT_MS));
    expect(await run).toEqual(['m-hang-1']);
    // Nothing holds it any more: it stopped looking, and every look was a long poll.
    expect(w.queue.receiveWaits.length).toBeLessThanOrEqual(receives + 1);
    expect(new Set(w.queue.receiveWaits)).toEqual(new Set([PULL_WHEN_HELD.receiveWaitSeconds]));
    expectInvariants(w);
  });

  it('stops pulling when the remaining time no longer covers a receive, an attempt timeout and the margin', async () => {
    // A receive's wait, one attempt timeout and the margin must fit after each receive starts.
    const budget = PULL_WHEN_HELD.receiveWaitSeconds * 1000 + TIMEOUT_MS + PULL_WHEN_HELD.marginMs;
    // 600 ms beyond that: the attempt is slow after 300 ms, so pulling has 300 ms left.
    const { w, deps, timeOut, receivedAt, deadline } = heldWorld(budget + 600);
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    const run = deliverBatch(deps, [message('hang-1')]);
    // The queue stays empty, so the held invocation would look again and again if it did not stop.
    const ticks = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    await ticks(2_000);
    const stoppedAt = w.clock.now();
    await ticks(200);
    // It no longer looks (virtual time stands still), and it stopped for the deadline, not before.
    expect(w.clock.now()).toBe(stoppedAt);
    expect(deadline - stoppedAt).toBeLessThan(budget);
    expect(deadline - stoppedAt).toBeGreaterThanOrEqual(budget - PULL_WHEN_HELD.pollMs);
    expect(receivedAt.length).toBeGreaterThan(0);
    for (const at of receivedAt) expect(deadline - at).toBeGreaterThanOrEqual(budget);
    timeOut();
    await run;
  });

  it('never pulls while its attempts answer quickly (a healthy endpoint’s path is unchanged)', async () => {
    const { w, deps } = heldWorld();
    for (const id of ['a', 'b', 'c']) w.events.seed({ id });
    w.queue.visible.push(message('x'));
    expect(await deliverBatch(deps, [message('a'), message('b'), message('c')])).toEqual([]);
    expect(w.queue.receives).toEqual([]);
    expect(w.health.writes).toEqual([]);
    expectInvariants(w);
  });
});
