/**
 * What every {@link EndpointDeliveries} does, run against the in-memory store (unit) and DynamoDB Local
 * (integration), so the fake the use-case tests use cannot drift from the adapter: an untouched delivery
 * reads pending; the first lease or attempt creates it; a lease is exclusive and conditioned on the
 * attempt count and the due time; a failure never overrides a success, every attempt is counted; a
 * settlement only moves a pending delivery; deliveries of one event at two endpoints, or of two events
 * at one, are apart; a stale ref (another event at the same sequence) writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { type DeliveryRef, type EndpointDeliveries, UNTOUCHED } from '#domain/endpoints/deliveries-port';
import type { DeliveryAttempt } from '#domain/model';

/** A claim of the attempt after `expectedRetries`, until `until`, made at `now`, due by `due`. */
const claim = (expectedRetries: number, until: number, now: number, due: number) => ({
  expectedRetries,
  untilEpochMs: until,
  nowEpochMs: now,
  dueByEpochMs: due,
});

const attempt = (status: number): DeliveryAttempt => ({
  deliveredAt: '2026-11-27T10:00:00.000Z',
  responseStatus: status,
  responseBody: `answer ${status}`,
  responseTimeMs: 12,
  url: 'https://books.example.com/h',
  signingKeys: ['whk_0123456789abcdef'],
});

let sequence = 0;
/** A delivery of a fresh event (its own sequence) at an endpoint. */
const fresh = (endpointId = 'ep_0000000000a1'): DeliveryRef => {
  sequence += 1;
  return { id: randomUUID(), orgId: 'org-1', account: 'DE89370400440532013000', sequence, endpointId };
};

/** Declares the contract's tests for the store `store()` gives (after the file's setup). */
export function endpointDeliveriesContract(store: () => EndpointDeliveries): void {
  const NOW = 1_800_000_000_000;

  it('reads an untouched delivery as pending with no attempt, and creates it with the first attempt', async () => {
    const ref = fresh();
    expect(await store().readDelivery(ref)).toMatchObject({ status: 'pending', retries: 0, deliveries: [] });
    const recorded = await store().recordAttempt(ref, attempt(500), 'pending', NOW + 10_000);
    expect(recorded).toMatchObject({ status: 'pending', retries: 1, nextAttemptAt: NOW + 10_000 });
    expect(await store().readDelivery(ref)).toEqual(recorded);
    expect(recorded.deliveries).toEqual([attempt(500)]);
  });

  it('gives the lease to one holder, conditioned on the attempt count and the due time', async () => {
    const ref = fresh();
    expect(await store().takeLease(ref, claim(1, NOW + 60_000, NOW, NOW))).toBe(false);
    expect(await store().takeLease(ref, claim(0, NOW + 60_000, NOW, NOW))).toBe(true);
    expect(await store().takeLease(ref, claim(0, NOW + 60_000, NOW, NOW))).toBe(false);
    await store().recordAttempt(ref, attempt(503), 'pending', NOW + 30_000);
    // Released by the attempt, but not due before its time.
    expect(await store().takeLease(ref, claim(1, NOW + 90_000, NOW + 1_000, NOW + 1_000))).toBe(false);
    expect(await store().takeLease(ref, claim(1, NOW + 90_000, NOW + 30_000, NOW + 30_000))).toBe(true);
  });

  it('never lets a failure override a success, and counts every attempt', async () => {
    const ref = fresh();
    await store().recordAttempt(ref, attempt(200), 'success');
    const late = await store().recordAttempt(ref, attempt(500), 'failed');
    expect(late).toMatchObject({ status: 'success', retries: 2 });
    expect(late.deliveries.map((a) => a.responseStatus)).toEqual([200, 500]);
    expect(await store().settlePending(ref, 'skipped')).toBe(false);
  });

  it('settles a pending delivery once, an untouched one too', async () => {
    const ref = fresh();
    expect(await store().settlePending(ref, 'skipped')).toBe(true);
    expect(await store().settlePending(ref, 'failed')).toBe(false);
    expect(await store().readDelivery(ref)).toMatchObject({ status: 'skipped', retries: 0 });
    expect(await store().takeLease(ref, claim(0, NOW + 60_000, NOW, NOW))).toBe(false);
  });

  it("keeps one event's deliveries at two endpoints apart", async () => {
    const books = fresh('ep_0000000000b1');
    const store2 = { ...books, endpointId: 'ep_0000000000b2' };
    await store().recordAttempt(books, attempt(200), 'success');
    expect(await store().readDelivery(store2)).toMatchObject({ status: 'pending', retries: 0 });
    expect(await store().takeLease(store2, claim(0, NOW + 60_000, NOW, NOW))).toBe(true);
  });

  it("starts a settled delivery's new route cycle once, and only numbers a pending one's", async () => {
    const ref = fresh();
    await store().recordAttempt(ref, attempt(500), 'failed');
    expect(await store().startCycle(ref, 1, false)).toBe(false);
    expect(await store().startCycle(ref, 1, true)).toBe(true);
    expect(await store().startCycle(ref, 1, true)).toBe(false);
    const restarted = await store().readDelivery(ref);
    expect(restarted).toMatchObject({ status: 'pending', retries: 1, cycleBase: 1, routeCycle: 1 });
    expect(restarted.nextAttemptAt).toBeUndefined();
    // A pending one (leased, scheduled) keeps its cycle and lease; an untouched one is created in it.
    expect(await store().takeLease(ref, claim(1, NOW + 60_000, NOW, NOW))).toBe(true);
    expect(await store().startCycle(ref, 2, true)).toBe(false);
    expect(await store().startCycle(ref, 2, false)).toBe(true);
    expect(await store().readDelivery(ref)).toMatchObject({
      status: 'pending',
      cycleBase: 1,
      leaseUntil: NOW + 60_000,
      routeCycle: 2,
    });
    const untouched = fresh();
    expect(await store().startCycle(untouched, 1, false)).toBe(true);
    expect(await store().readDelivery(untouched)).toMatchObject({
      status: 'pending',
      retries: 0,
      routeCycle: 1,
    });
    expect(await store().takeLease(untouched, claim(0, NOW + 60_000, NOW, NOW))).toBe(true);
  });

  it('writes nothing for a stale ref: another event at the same sequence', async () => {
    const ref = fresh();
    await store().recordAttempt(ref, attempt(500), 'pending', NOW);
    const stale = { ...ref, id: randomUUID() };
    expect(await store().readDelivery(stale)).toMatchObject({ status: 'pending', retries: 0 });
    expect(await store().takeLease(stale, claim(0, NOW + 60_000, NOW, NOW))).toBe(false);
    expect(await store().settlePending(stale, 'skipped')).toBe(false);
    // The webhook was sent already: recording it never throws, it answers an untouched delivery.
    expect(await store().recordAttempt(stale, attempt(200), 'success')).toEqual(UNTOUCHED);
    expect(await store().recordAttempt(stale, attempt(500), 'pending', NOW)).toEqual(UNTOUCHED);
    expect(await store().recordAttempt(stale, attempt(410), 'failed')).toEqual(UNTOUCHED);
    expect(await store().startCycle(stale, 1, false)).toBe(false);
    expect(await store().readDelivery(ref)).toMatchObject({ status: 'pending', retries: 1 });
  });

  it('starts a new cycle of a settled delivery alone, counted per delivery, at most MAX_CYCLES', async () => {
    const ref = fresh();
    expect(await store().startOwnCycle(ref)).toBe(false); // untouched: pending
    await store().recordAttempt(ref, attempt(500), 'failed');
    for (let cycle = 2; cycle <= MAX_CYCLES; cycle++) {
      expect(await store().startOwnCycle(ref)).toBe(true);
      expect(await store().readDelivery(ref)).toMatchObject({
        status: 'pending',
        retries: cycle - 1,
        cycleBase: cycle - 1,
        cycles: cycle,
      });
      // Pending: no second start.
      expect(await store().startOwnCycle(ref)).toBe(false);
      await store().recordAttempt(ref, attempt(500), 'failed');
    }
    expect(await store().startOwnCycle(ref)).toBe(false);
    expect(await store().readDelivery(ref)).toMatchObject({ status: 'failed', cycles: MAX_CYCLES });
  });

  it('replaces a cycle that sent nothing uncounted, and starts none for a stale ref', async () => {
    const ref = fresh();
    await store().settlePending(ref, 'skipped');
    expect(await store().startOwnCycle({ ...ref, id: randomUUID() })).toBe(false);
    expect(await store().startOwnCycle(ref)).toBe(true);
    expect(await store().readDelivery(ref)).toMatchObject({ status: 'pending', retries: 0, cycles: 1 });
  });

  it("reads one event's deliveries at several endpoints in one batch: the written ones only", async () => {
    const ref = fresh('ep_0000000000c1');
    const other = { ...ref, endpointId: 'ep_0000000000c2' };
    await store().recordAttempt(ref, attempt(200), 'success');
    await store().recordAttempt(other, attempt(503), 'pending', NOW + 5_000);
    // Another event's delivery at the same endpoint, and one never written.
    await store().recordAttempt(fresh('ep_0000000000c1'), attempt(200), 'success');
    const found = await store().readDeliveries(ref, [
      'ep_0000000000c1',
      'ep_0000000000c2',
      'ep_0000000000c3',
    ]);
    expect([...found.keys()].sort()).toEqual(['ep_0000000000c1', 'ep_0000000000c2']);
    expect(found.get('ep_0000000000c1')).toMatchObject({ status: 'success', retries: 1 });
    expect(found.get('ep_0000000000c2')).toMatchObject({ status: 'pending', nextAttemptAt: NOW + 5_000 });
    expect((await store().readDeliveries({ ...ref, id: randomUUID() }, ['ep_0000000000c1'])).size).toBe(0);
    expect((await store().readDeliveries(ref, [])).size).toBe(0);
  });

  it("pages an endpoint's deliveries newest first, the written ones only", async () => {
    const refs = [fresh('ep_0000000000d1'), fresh('ep_0000000000d1'), fresh('ep_0000000000d1')];
    for (const ref of refs) await store().recordAttempt(ref, attempt(200), 'success');
    // Another endpoint's delivery of the same event is not this endpoint's.
    await store().recordAttempt(
      { ...(refs[0] as DeliveryRef), endpointId: 'ep_0000000000d2' },
      attempt(200),
      'success',
    );
    const where = (ref: DeliveryRef | undefined) => ({ id: ref?.id, sequence: ref?.sequence });
    const first = await store().listDeliveries('org-1', refs[0]?.account ?? '', 'ep_0000000000d1', {
      offset: 0,
      limit: 2,
    });
    expect(first).toEqual({ deliveries: [where(refs[2]), where(refs[1])], hasMore: true });
    const second = await store().listDeliveries('org-1', refs[0]?.account ?? '', 'ep_0000000000d1', {
      offset: 2,
      limit: 2,
    });
    expect(second).toEqual({ deliveries: [where(refs[0])], hasMore: false });
    const none = await store().listDeliveries('org-2', refs[0]?.account ?? '', 'ep_0000000000d1', {
      offset: 0,
      limit: 2,
    });
    expect(none).toEqual({ deliveries: [], hasMore: false });
  });
}
