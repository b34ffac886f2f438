/**
 * A held invocation's holds end when the held URL answers quickly with a 2xx: the pulled messages it
 * deferred for that URL go back to the queue at once (visibility 0); a slow answer, an error, a 429/503,
 * a timeout or another URL's answer keeps them waiting, and so does a hold that has run out.
 */
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import { deliverBatch } from '#delivery/deliver-batch';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { RELEASE_MARGIN_MS } from '#delivery/held-invocation-rule';
import type { QueueMessage } from '#domain/ports';
import { message } from '../support/fakes/delivery-queue';
import { answer } from '../support/fakes/webhook-sender';
import { expectInvariants, HANGING_IBAN, heldWorld, until } from '../support/held-world';

type World = ReturnType<typeof heldWorld>;

/** Runs a batch held by one attempt to HANGING, and pulls `pulled` once that attempt holds its URL. */
async function heldAndPulled(world: World, ...pulled: QueueMessage[]) {
  const { w, deps } = world;
  w.events.seed({ id: 'hang-1', account: HANGING_IBAN });
  w.events.seed({ id: 'hang-2', account: HANGING_IBAN });
  const start = w.clock.now();
  const run = deliverBatch(deps, [message('hang-1')]);
  await until(() => w.clock.now() >= start + PULL_WHEN_HELD.heldAfterMs);
  w.queue.visible.push(...pulled);
  // In an object: an async function's returned promise would be awaited with it.
  return { run };
}

/** A batch held by one attempt to HANGING, and a pulled message to the same URL deferred for it. */
async function heldAndDeferred(world = heldWorld()) {
  const { w } = world;
  const { run } = await heldAndPulled(world, message('hang-2'));
  await until(() => w.queue.postponed.some((p) => p.receiptHandle === 'r-hang-2'));
  expect(w.queue.postponed.find((p) => p.receiptHandle === 'r-hang-2')?.seconds).toBeGreaterThanOrEqual(10);
  return { ...world, run };
}

/** Answers every attempt to HANGING so far. */
const answerHanging = (world: World, status: number, ms: number, retryAfter?: string) => {
  for (const resolve of world.pending.splice(0)) resolve(answer(status, retryAfter, ms));
};

/**
 * Makes the fake queue's visibility changes that match `when` wait until the test lets them through;
 * `reached` tells whether one has started.
 */
function gatePostpone(world: World, when: (handle: string, seconds: number) => boolean) {
  const { w } = world;
  let letThrough = () => {};
  const gate = new Promise<void>((resolve) => {
    letThrough = resolve;
  });
  let reached = false;
  const postpone = w.queue.postpone.bind(w.queue);
  w.queue.postpone = async (handle, seconds) => {
    if (when(handle, seconds)) {
      reached = true;
      await gate;
    }
    return postpone(handle, seconds);
  };
  return { letThrough, reached: () => reached };
}

const released = (postponed: readonly { receiptHandle: string; seconds: number }[]) =>
  postponed.filter((p) => p.receiptHandle === 'r-hang-2' && p.seconds === 0);

describe('deliverBatch releasing a held URL', () => {
  it('sends the messages it deferred for a URL back at once when that URL answers quickly', async () => {
    const world = await heldAndDeferred();
    const { w, run } = world;
    // A healthy receiver that was slow once: 200 after 600 ms, under the breaker's slowMs.
    answerHanging(world, 200, 600);
    await run;
    expect(released(w.queue.postponed)).toHaveLength(1);
    // Released, not attempted or deleted here: it is handled when it is received again.
    expect(w.events.events.get('hang-2')).toMatchObject({ webhookRetries: 0, deliveries: [] });
    expect(w.queue.deleted).not.toContain('r-hang-2');
    expectInvariants(w);
  });

  it('keeps them waiting when the URL answers in slowMs or more', async () => {
    const world = await heldAndDeferred();
    answerHanging(world, 200, DEFAULT_HEALTH_POLICY.slowMs);
    await world.run;
    expect(released(world.w.queue.postponed)).toEqual([]);
    expectInvariants(world.w);
  });

  it('keeps them waiting when the URL answers quickly with an error or a 503 asking for time', async () => {
    for (const [status, retryAfter] of [
      [500, undefined],
      [503, '30'],
    ] as const) {
      const world = await heldAndDeferred();
      answerHanging(world, status, 100, retryAfter);
      await world.run;
      expect(released(world.w.queue.postponed)).toEqual([]);
      expectInvariants(world.w);
    }
  });

  it('keeps them waiting when another URL answers quickly', async () => {
    const world = heldWorld();
    const { w } = world;
    w.events.seed({ id: 'fast-1' });
    const { run } = await heldAndPulled(world, message('hang-2'), message('fast-1'));
    await until(() => w.events.events.get('fast-1')?.webhookStatus === 'success');
    await until(() => w.queue.postponed.some((p) => p.receiptHandle === 'r-hang-2'));
    expect(released(w.queue.postponed)).toEqual([]);
    world.timeOut();
    await run;
    expect(released(w.queue.postponed)).toEqual([]);
    expectInvariants(w);
  });

  it('releases a message whose hold was still being written when the URL answered', async () => {
    const world = heldWorld();
    const { w } = world;
    // The hold's ChangeMessageVisibility for hang-2 waits until the test lets it through.
    const hold = gatePostpone(world, (handle, seconds) => handle === 'r-hang-2' && seconds > 0);
    const { run } = await heldAndPulled(world, message('hang-2'));
    await until(hold.reached);
    answerHanging(world, 200, 600);
    // The answer has been handled (its attempt recorded) before the hold is written: only the hold's
    // own check can release hang-2 now.
    await until(() => w.events.events.get('hang-1')?.webhookStatus === 'success');
    expect(released(w.queue.postponed)).toEqual([]);
    hold.letThrough();
    await run;
    expect(released(w.queue.postponed)).toHaveLength(1);
    expectInvariants(w);
  });

  it('returns only after its releases have been sent', async () => {
    const world = heldWorld();
    const { w } = world;
    const release = gatePostpone(world, (_handle, seconds) => seconds === 0);
    const { run } = await heldAndDeferred(world);
    let returned = false;
    void run.then(() => {
      returned = true;
    });
    answerHanging(world, 200, 600);
    await until(() => release.reached() && w.events.events.get('hang-1')?.webhookStatus === 'success');
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(returned).toBe(false);
    release.letThrough();
    await run;
    expect(released(w.queue.postponed)).toHaveLength(1);
  });

  it('reports a release that fails and still returns (the hold brings the message back)', async () => {
    const world = heldWorld();
    const { w } = world;
    const postpone = w.queue.postpone.bind(w.queue);
    const refused = new Error('ChangeMessageVisibility refused');
    w.queue.postpone = async (handle, seconds) => {
      if (seconds === 0) throw refused;
      return postpone(handle, seconds);
    };
    const { run } = await heldAndDeferred(world);
    answerHanging(world, 200, 600);
    await run;
    expect(w.errors).toContain(refused);
    expect(w.queue.deleted).not.toContain('r-hang-2');
    expectInvariants(w);
  });

  it('never releases a message it replaced (the replacement is a new message, the old one deleted)', async () => {
    const world = heldWorld();
    const { w } = world;
    const pulled = message('hang-2', { receiveCount: w.deps.replaceAtReceiveCount });
    const { run } = await heldAndPulled(world, pulled);
    await until(() => w.queue.sent.some((s) => s.id === 'hang-2'));
    answerHanging(world, 200, 600);
    await run;
    expect(w.queue.postponed.filter((p) => p.receiptHandle === 'r-hang-2')).toEqual([]);
    expect(w.queue.deleted).toContain('r-hang-2');
    expectInvariants(w);
  });

  it('does not release a hold that has run out (its message may have been received again)', async () => {
    const world = await heldAndDeferred();
    const { w, run } = world;
    const heldAt = w.clock.now();
    const seconds = w.queue.postponed.find((p) => p.receiptHandle === 'r-hang-2')?.seconds ?? 0;
    await until(() => w.clock.now() >= heldAt + seconds * 1000 - RELEASE_MARGIN_MS);
    answerHanging(world, 200, 600);
    await run;
    expect(released(w.queue.postponed)).toEqual([]);
    expectInvariants(w);
  });

  it('keeps them waiting when the attempt times out', async () => {
    const world = await heldAndDeferred();
    world.timeOut();
    await world.run;
    expect(released(world.w.queue.postponed)).toEqual([]);
    expect(world.w.events.events.get('hang-1')).toMatchObject({ webhookRetries: 1 });
    expectInvariants(world.w);
  });
});
