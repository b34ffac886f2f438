/**
 * A delivery that hits an unexpected error (a read still throttled after the SDK's retries) comes back
 * within seconds, backing off to minutes while the error lasts, not after the queue's 720 s visibility
 * timeout, and never soon after a send it could not record; a failing postponement falls back to
 * the visibility timeout; a persistent error still reaches the dead-letter queue, sooner but within a
 * bound, and an event never gets more than its cycle's 20 attempts nor loses one.
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_QUEUE, MAX_ATTEMPTS } from '#config/delivery';
import { reconcileBatch } from '#delivery/dead-letter';
import { deliverBatch } from '#delivery/deliver-batch';
import { errorRetrySeconds, errorReturnNotBefore } from '#delivery/postponement-rule';
import type { QueueMessage } from '#domain/ports';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { answer, ok } from '../support/fakes/webhook-sender';

/** Makes `recordAttempt` throw while `failing()` says so, as a write throttled past the SDK's retries. */
function failRecords(w: DeliveryWorld, failing: () => boolean): void {
  const record = w.events.recordAttempt.bind(w.events);
  w.events.recordAttempt = (...args) =>
    failing() ? Promise.reject(new Error('throttled write')) : record(...args);
}

/** Makes the event reads throw while `failing()` says so, as a table throttled past the SDK's retries. */
function throttleReads(w: DeliveryWorld, failing: () => boolean): void {
  const read = w.events.getEvent.bind(w.events);
  w.events.getEvent = (...args) =>
    failing() ? Promise.reject(new Error('ProvisionedThroughputExceededException')) : read(...args);
}

describe('errorRetrySeconds', () => {
  it('doubles with the receive count from 2 s, capped at 300 s, jittered to between half and all of it', () => {
    expect([1, 2, 3, 4, 8, 9, 10, 20].map((count) => errorRetrySeconds(count, 0.999_999))).toEqual([
      2, 4, 8, 16, 256, 300, 300, 300,
    ]);
    expect([1, 2, 3, 8, 9, 20].map((count) => errorRetrySeconds(count, 0))).toEqual([1, 2, 4, 128, 150, 150]);
  });

  it('brings a message back no sooner than 2 s after a time its handling left behind', () => {
    const now = 1_000_000;
    expect(errorRetrySeconds(1, 0, now + 120_000, now)).toBe(122);
    // 1 ms short of a whole second still rounds up before the margin: never a lease end plus 1 ms.
    expect(errorRetrySeconds(1, 0, now + 120_999, now)).toBe(123);
    expect(errorRetrySeconds(1, 0, now - 5_000, now)).toBe(1);
  });

  it('waits out the later of the lease and one lease time after an unrecorded send', () => {
    expect(errorReturnNotBefore({}, 120_000)).toBeUndefined();
    expect(errorReturnNotBefore({ leaseUntil: 500 }, 120_000)).toBe(500);
    expect(errorReturnNotBefore({ unrecordedSendAt: 1_000 }, 120_000)).toBe(121_000);
    expect(errorReturnNotBefore({ leaseUntil: 120_000, unrecordedSendAt: 3_000 }, 120_000)).toBe(123_000);
  });
});

describe('deliverBatch after an unexpected error', () => {
  it('postpones the message by seconds; back then, it is delivered with one attempt recorded', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    let reads = 0;
    throttleReads(w, () => ++reads === 1);
    expect(await deliverBatch(w.deps, [message('e1')])).toEqual(['m-e1']);
    expect(w.errors).toHaveLength(1);
    // random() is 0: half of the first 2 s.
    expect(w.queue.postponed).toEqual([{ receiptHandle: 'r-e1', seconds: 1 }]);

    w.clock.advance(1_000);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 2 })])).toEqual([]);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 1 });
    expect(w.events.events.get('e1')?.deliveries).toHaveLength(1);
    expect(w.sender.requests).toHaveLength(1);
  });

  it('keeps the message for the visibility timeout when the postponement fails too, and reports both', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    throttleReads(w, () => true);
    const tried: number[] = [];
    w.queue.postpone = (_handle, seconds) => {
      tried.push(seconds);
      return Promise.reject(new Error('SQS unreachable'));
    };
    expect(await deliverBatch(w.deps, [message('e1')])).toEqual(['m-e1']);
    expect(tried).toEqual([1]);
    expect(w.errors.map((error) => (error as Error).message)).toEqual([
      'ProvisionedThroughputExceededException',
      'SQS unreachable',
    ]);
  });

  it('waits out the lease it took when recording the attempt failed, so the message is not dropped as a duplicate', async () => {
    const w = deliveryWorld();
    // A retry: its attempt takes the event's lease (120 s) first.
    w.events.seed({ id: 'e1', webhookRetries: 1, nextAttemptAt: w.clock.now() });
    let failRecord = true;
    failRecords(w, () => failRecord);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 2 })])).toEqual(['m-e1']);
    expect(w.queue.postponed).toEqual([{ receiptHandle: 'r-e1', seconds: 122 }]);

    failRecord = false;
    w.clock.advance(122_000);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 3 })])).toEqual([]);
    expect(w.outcomes.at(-1)?.kind).toBe('delivered');
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 2 });
  });
  it('comes back 2 s or more after the lease ends, so a message back a little early still finds it free', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1', webhookRetries: 1, nextAttemptAt: w.clock.now() });
    const leaseEnds = w.clock.now() + w.deps.leaseMs;
    // The attempt takes 1 ms, so the lease ends 119.999 s after the postponement.
    w.sender.answer = () => {
      w.clock.advance(1);
      return ok();
    };
    let failRecord = true;
    failRecords(w, () => failRecord);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 2 })])).toEqual(['m-e1']);
    const seconds = w.queue.postponed.at(-1)?.seconds ?? 0;

    // Back 1.5 s before its time by this consumer's clock (SQS's timing, or a clock behind the first one's).
    failRecord = false;
    w.clock.advance(seconds * 1000 - 1_500);
    expect(w.clock.now()).toBeGreaterThan(leaseEnds);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 3 })])).toEqual([]);
    expect(w.outcomes.at(-1)?.kind).toBe('delivered');
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 2 });
  });

  it('does not send a first attempt again within seconds when recording it failed: it waits one lease time', async () => {
    const w = deliveryWorld();
    // A first attempt takes no lease.
    w.events.seed({ id: 'e1' });
    let failRecord = true;
    failRecords(w, () => failRecord);
    const leaseSeconds = w.deps.leaseMs / 1000;
    expect(await deliverBatch(w.deps, [message('e1')])).toEqual(['m-e1']);
    expect(w.sender.requests).toHaveLength(1);
    expect(w.queue.postponed.at(-1)?.seconds).toBeGreaterThanOrEqual(leaseSeconds);

    // A record that keeps failing sends at most once per lease time, never within seconds.
    w.clock.advance((w.queue.postponed.at(-1)?.seconds ?? 0) * 1000);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 2 })])).toEqual(['m-e1']);
    expect(w.sender.requests).toHaveLength(2);
    expect(w.queue.postponed.at(-1)?.seconds).toBeGreaterThanOrEqual(leaseSeconds);

    failRecord = false;
    w.clock.advance((w.queue.postponed.at(-1)?.seconds ?? 0) * 1000);
    expect(await deliverBatch(w.deps, [message('e1', { receiveCount: 3 })])).toEqual([]);
    expect(w.sender.requests).toHaveLength(3);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 1 });
    expect(w.events.events.get('e1')?.deliveries).toHaveLength(1);
  });
});

describe('an ordered account after an unexpected error', () => {
  it('keeps its gate: an event whose gate read threw comes back soon and still waits for the earlier one', async () => {
    const w = deliveryWorld();
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    w.directory.accounts.set(w.iban, { ...account, deliveryOrder: 'ordered' });
    const refs = [1, 2].map((sequence) => {
      const event = w.events.seed({ id: `e${sequence}`, account: w.iban, sequence });
      return { id: event.id, orgId: event.orgId, account: w.iban, sequence };
    });
    const [first, second] = refs.map((ref) => message(ref));
    if (!first || !second) throw new Error('no messages');
    const readLog = w.events.readLogEntries.bind(w.events);
    let throwing = true;
    w.events.readLogEntries = (...args) =>
      throwing ? Promise.reject(new Error('throttled query')) : readLog(...args);

    expect(await deliverBatch(w.deps, [second])).toEqual(['m-e2']);
    expect(w.queue.postponed).toEqual([{ receiptHandle: 'r-e2', seconds: 1 }]);
    throwing = false;
    w.clock.advance(1_000);
    expect(await deliverBatch(w.deps, [{ ...second, receiveCount: 2 }])).toEqual(['m-e2']);
    expect(w.outcomes.at(-1)?.kind).toBe('waiting');
    expect(w.sender.requests).toHaveLength(0);

    // e1's attempt succeeds, but the chain's log read after it throws: e1 comes back soon, finds itself
    // settled, and moves the order on then.
    throwing = true;
    expect(await deliverBatch(w.deps, [first])).toEqual(['m-e1']);
    expect(w.events.events.get('e1')?.webhookStatus).toBe('success');
    // Its send was recorded, so nothing holds it back: seconds, not a lease time.
    expect(w.queue.postponed.at(-1)).toEqual({ receiptHandle: 'r-e1', seconds: 1 });
    throwing = false;
    w.clock.advance(1_000);
    expect(await deliverBatch(w.deps, [{ ...first, receiveCount: 2 }])).toEqual([]);
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
    // e1 sent again by e2's second look (a stalled head), then e2 by e1's settling.
    expect(w.queue.sent.map((sent) => sent.id)).toEqual(['e1', 'e2']);
    expect(await deliverBatch(w.deps, [{ ...second, receiveCount: 3 }])).toEqual([]);
    expect(w.sender.requests.map((request) => JSON.parse(request.body).id)).toEqual(['e1', 'e2']);
  });
});

/** What {@link drive} saw. */
interface Drive {
  receives: number;
  deadLetters: number;
  replaced: number;
  /** Virtual ms from the first receive until the first dead letter, if any. */
  firstDeadLetterMs?: number;
  /** Virtual ms from the first receive to each receive from the delivery queue (not of a dead letter). */
  deliveryReceivesMs: number[];
  /** The event's message was deleted while the event was still pending. */
  lost: boolean;
}

/**
 * One event's messages through a model of the delivery queue: a kept message comes back after the
 * seconds it was postponed by (or the visibility timeout), a message received `maxReceiveCount` times is
 * dead-lettered on its next receive and reconciled (the dead letter comes back every 60 s while the
 * reconciler fails), a replaced or requeued message starts again at receive count 1. `failing(receive)`
 * says whether the store throws during the `receive`-th receive (of delivery or dead letter).
 */
async function drive(
  w: DeliveryWorld,
  id: string,
  failing: (receive: number) => boolean,
  deps = w.deps,
): Promise<Drive> {
  const seen: Drive = { receives: 0, deadLetters: 0, replaced: 0, lost: false, deliveryReceivesMs: [] };
  throttleReads(w, () => failing(seen.receives));
  const start = w.clock.now();
  let current: QueueMessage = message(id, { sentAt: start });
  let visibleAt = start;
  for (let step = 0; step < 1_000 && w.events.events.get(id)?.webhookStatus === 'pending'; step++) {
    w.clock.advance(Math.max(0, visibleAt - w.clock.now()));
    seen.receives++;
    if (current.receiveCount > DELIVERY_QUEUE.maxReceiveCount) {
      seen.deadLetters++;
      seen.firstDeadLetterMs ??= w.clock.now() - start;
      const sent = w.queue.sent.length;
      const keep = await reconcileBatch(
        { ...deps, observe: () => undefined, observeError: () => undefined },
        [current],
      );
      if (keep.length > 0) visibleAt = w.clock.now() + 60_000;
      else if (w.queue.sent.length > sent) {
        current = message(id, { sentAt: w.clock.now() });
        visibleAt = w.clock.now();
      }
      continue;
    }
    const postponed = w.queue.postponed.length;
    const sent = w.queue.sent.length;
    seen.deliveryReceivesMs.push(w.clock.now() - start);
    const keep = await deliverBatch(deps, [current]);
    if (keep.length > 0) {
      const seconds = w.queue.postponed.at(postponed)?.seconds ?? DELIVERY_QUEUE.visibilityTimeoutSeconds;
      current = { ...current, receiveCount: current.receiveCount + 1 };
      visibleAt = w.clock.now() + seconds * 1000;
    } else if (w.queue.sent.length > sent) {
      seen.replaced++;
      current = message(id, { sentAt: w.clock.now() });
      visibleAt = w.clock.now() + (w.queue.sent.at(-1)?.delaySeconds ?? 0) * 1000;
    } else {
      seen.lost = w.events.events.get(id)?.webhookStatus === 'pending';
      break;
    }
  }
  return seen;
}

describe('a persistent error', () => {
  it('uses up the message’s receives within about 69 min and reaches the reconciler, which delivers once it clears', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    // Throttled for the 20 receives and the first look of the reconciler; clear from then on. The
    // longest jitter: the bound.
    const longest = { ...w.deps, random: () => 0.999_999 };
    const seen = await drive(w, 'e1', (receive) => receive <= DELIVERY_QUEUE.maxReceiveCount + 1, longest);
    expect(seen.lost).toBe(false);
    // 2 + 4 + … + 256 s, then 300 s for each of the 12 later receives: 4,110 s to the 21st receive, the
    // dead letter.
    expect(seen.firstDeadLetterMs).toBe(4_110_000);
    expect(seen.deadLetters).toBe(2);
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 1 });
    expect(w.sender.requests).toHaveLength(1);
  });

  it('reaches the dead-letter queue no sooner than about 34 min with the shortest jitter', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    const seen = await drive(w, 'e1', (receive) => receive <= DELIVERY_QUEUE.maxReceiveCount + 1);
    // Half of each wait: 1 + 2 + … + 128 s, then 150 s for each of the 12 later receives.
    expect(seen.firstDeadLetterMs).toBe(2_055_000);
    expect(seen.lost).toBe(false);
  });

  it('costs seconds while short, then reads the message at most once per 150 s while it lasts', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    // The shortest jitter: the most reads.
    const seen = await drive(w, 'e1', (receive) => receive <= DELIVERY_QUEUE.maxReceiveCount + 1);
    // The message's receives until it is dead-lettered (the reconciler's fresh message follows).
    const receives = seen.deliveryReceivesMs.slice(0, DELIVERY_QUEUE.maxReceiveCount);
    const gaps = receives.slice(1).map((at, index) => at - (receives[index] ?? 0));
    expect(gaps).toHaveLength(DELIVERY_QUEUE.maxReceiveCount - 1);
    // A throttle that clears within seconds is retried within seconds.
    expect(gaps.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000]);
    // From the 9th receive on, one read per 150 s at the most, not one per 30 s (and the visibility
    // timeout's 720 s before errors came back early).
    const late = gaps.slice(8);
    expect(late).toHaveLength(11);
    for (const gap of late) expect(gap).toBeGreaterThanOrEqual(150_000);
  });

  it('still leaves the event all 20 attempts of its cycle, and no 21st, however many receives errors use up', async () => {
    for (const erroring of [5, 17, 19, 20]) {
      const w = deliveryWorld();
      w.events.seed({ id: 'e1' });
      w.sender.answer = () => answer(500);
      // The first `erroring` receives throw, then the receiver fails every attempt.
      const seen = await drive(w, 'e1', (receive) => receive <= erroring);
      expect(seen.lost).toBe(false);
      const event = w.events.events.get('e1');
      expect(event).toMatchObject({ webhookStatus: 'failed', webhookRetries: MAX_ATTEMPTS });
      expect(event?.deliveries).toHaveLength(MAX_ATTEMPTS);
      expect(w.sender.requests).toHaveLength(MAX_ATTEMPTS);
      // Errors that use up the receives end in the dead-letter queue, whose reconciler sends the event again.
      expect(seen.deadLetters > 0 || seen.replaced > 0).toBe(true);
    }
  });
});
