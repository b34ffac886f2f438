/**
 * A held invocation's holds end when the held URL answers quickly with a 2xx: the pulled messages it
 * deferred for that URL go back to the queue at once (visibility 0); a slow answer, an error, a 429/503
 * or a timeout keeps them waiting, and so does a hold that has run out.
 */
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import { DEFAULT_HEALTH_POLICY } from '#domain/delivery/endpoint-health';
import { RELEASE_MARGIN_MS } from '#domain/delivery/held-invocation';
import { deliverBatch } from '#use-cases/delivery/deliver-batch';
import { message } from '../support/fakes/delivery-queue';
import { answer } from '../support/fakes/webhook-sender';
import { expectInvariants, HANGING_IBAN, heldWorld, until } from '../support/held-world';

/** A batch held by one attempt to HANGING, and a pulled message to the same URL deferred for it. */
async function heldAndDeferred() {
  const world = heldWorld();
  const { w, deps } = world;
  w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
  w.events.seed({ id: 'hang-2', account: HANGING_IBAN });
  const start = w.clock.now();
  const run = deliverBatch(deps, [message('hang-1')]);
  await until(() => w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
  w.queue.visible.push(message('hang-2'));
  await until(() => w.queue.postponed.some((p) => p.receiptHandle === 'r-hang-2'));
  expect(w.queue.postponed.find((p) => p.receiptHandle === 'r-hang-2')?.seconds).toBeGreaterThanOrEqual(10);
  return { ...world, run };
}

const released = (postponed: readonly { receiptHandle: string; seconds: number }[]) =>
  postponed.filter((p) => p.receiptHandle === 'r-hang-2' && p.seconds === 0);

describe('deliverBatch releasing a held URL', () => {
  it('sends the messages it deferred for a URL back at once when that URL answers quickly', async () => {
    const { w, pending, run } = await heldAndDeferred();
    // A healthy receiver that was slow once: 200 after 600 ms, under the breaker's slowMs.
    pending.splice(0).forEach((resolve) => {
      resolve(answer(200, undefined, 600));
    });
    await run;
    expect(released(w.queue.postponed)).toHaveLength(1);
    // Released, not attempted here: it is handled when it is received again.
    expect(w.events.events.get('hang-2')).toMatchObject({ webhookRetries: 0, deliveries: [] });
    expectInvariants(w);
  });

  it('keeps them waiting when the URL answers in slowMs or more', async () => {
    const { w, pending, run } = await heldAndDeferred();
    pending.splice(0).forEach((resolve) => {
      resolve(answer(200, undefined, DEFAULT_HEALTH_POLICY.slowMs));
    });
    await run;
    expect(released(w.queue.postponed)).toEqual([]);
    expectInvariants(w);
  });

  it('keeps them waiting when the URL answers quickly with an error or a 503 asking for time', async () => {
    for (const [status, retryAfter] of [
      [500, undefined],
      [503, '30'],
    ] as const) {
      const { w, pending, run } = await heldAndDeferred();
      pending.splice(0).forEach((resolve) => {
        resolve(answer(status, retryAfter, 100));
      });
      await run;
      expect(released(w.queue.postponed)).toEqual([]);
    }
  });

  it('releases a message whose hold was still being written when the URL answered', async () => {
    const world = heldWorld();
    const { w, deps, pending } = world;
    w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
    w.events.seed({ id: 'hang-2', account: HANGING_IBAN });
    // The hold's ChangeMessageVisibility for hang-2 waits until the test lets it through.
    let letThrough = () => {};
    const gate = new Promise<void>((resolve) => {
      letThrough = resolve;
    });
    let holding = false;
    const postpone = w.queue.postpone.bind(w.queue);
    w.queue.postpone = async (handle, seconds) => {
      if (handle === 'r-hang-2' && seconds > 0) {
        holding = true;
        await gate;
      }
      return postpone(handle, seconds);
    };
    const start = w.clock.now();
    const run = deliverBatch(deps, [message('hang-1')]);
    await until(() => w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
    w.queue.visible.push(message('hang-2'));
    await until(() => holding);
    pending.splice(0).forEach((resolve) => {
      resolve(answer(200, undefined, 600));
    });
    letThrough();
    await run;
    expect(released(w.queue.postponed)).toHaveLength(1);
    expectInvariants(w);
  });

  it('does not release a hold that has run out (its message may have been received again)', async () => {
    const { w, pending, run } = await heldAndDeferred();
    const heldAt = w.clock.now();
    const seconds = w.queue.postponed.find((p) => p.receiptHandle === 'r-hang-2')?.seconds ?? 0;
    await until(() => w.clock.now() >= heldAt + seconds * 1000 - RELEASE_MARGIN_MS);
    pending.splice(0).forEach((resolve) => {
      resolve(answer(200, undefined, 600));
    });
    await run;
    expect(released(w.queue.postponed)).toEqual([]);
    expectInvariants(w);
  });

  it('keeps them waiting when the attempt times out', async () => {
    const { w, timeOut, run } = await heldAndDeferred();
    timeOut();
    await run;
    expect(released(w.queue.postponed)).toEqual([]);
    expect(w.events.events.get('hang-1')).toMatchObject({ webhookRetries: 1 });
    expectInvariants(w);
  });
});
