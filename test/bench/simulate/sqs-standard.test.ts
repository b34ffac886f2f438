import { describe, expect, it } from 'vitest';
import type { ReceivedMessage } from '../../../scripts/bench/simulate/aws/sqs/message';
import { StandardQueue } from '../../../scripts/bench/simulate/aws/sqs/standard-queue';
import { simulate } from './simulate';

const HOUR = 3_600_000;

describe('SQS standard queue', () => {
  it('hides a received message for the visibility timeout, then delivers it again with a higher count', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 30 });
      queue.send({ body: 'a' });
      await engine.sleep(1_000);
      const [first] = await queue.receive();
      expect(first).toMatchObject({ body: 'a', receiveCount: 1, sentAt: 0, firstReceivedAt: 1_000 });
      expect(await queue.receive()).toEqual([]);
      await engine.sleep(29_999);
      expect(await queue.receive()).toEqual([]);
      await engine.sleep(1);
      const [second] = await queue.receive();
      expect(second).toMatchObject({ body: 'a', receiveCount: 2, sentAt: 0, firstReceivedAt: 1_000 });
      expect(second?.receiptHandle).not.toBe(first?.receiptHandle);
    });
  });

  it('deletes by the latest receipt handle only', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 1 });
      queue.send({ body: 'a' });
      const [old] = (await queue.receive()) as [ReceivedMessage];
      await engine.sleep(1_000);
      const [current] = (await queue.receive()) as [ReceivedMessage];
      queue.delete(old.receiptHandle);
      expect(queue.stats).toMatchObject({ staleDeletes: 1, deleted: 0 });
      expect(queue.size).toBe(1);
      queue.delete(current.receiptHandle);
      expect(queue.size).toBe(0);
      expect(() => queue.delete('other/1/1')).toThrow(/ReceiptHandleIsInvalid/);
    });
  });

  it('postpones with ChangeMessageVisibility up to 12 hours from the receive, and only while in flight', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 60 });
      queue.send({ body: 'a' });
      const [m] = (await queue.receive()) as [ReceivedMessage];
      await engine.sleep(10_000);
      expect(() => queue.changeVisibility(m.receiptHandle, 12 * 3600)).toThrow(/12 hours/);
      expect(() => queue.changeVisibility(m.receiptHandle, 43_201)).toThrow(/InvalidParameterValue/);
      queue.changeVisibility(m.receiptHandle, 12 * 3600 - 10);
      await engine.sleep(12 * HOUR - 10_001);
      expect(await queue.receive()).toEqual([]);
      await engine.sleep(1);
      const [again] = (await queue.receive()) as [ReceivedMessage];
      expect(again.receiveCount).toBe(2);
      await engine.sleep(60_000);
      expect(() => queue.changeVisibility(again.receiptHandle, 5)).toThrow(/MessageNotInflight/);
    });
  });

  it('moves a message to the dead-letter queue on the receive after maxReceiveCount, keeping its send time', async () => {
    await simulate(async (engine) => {
      const dlq = new StandardQueue(engine, { name: 'dlq', retentionSeconds: 14 * 86_400 });
      const queue = new StandardQueue(engine, {
        name: 'q',
        visibilityTimeoutSeconds: 1,
        redrive: { deadLetter: dlq, maxReceiveCount: 3 },
      });
      queue.send({ body: 'poison' });
      for (let i = 1; i <= 3; i++) {
        const [m] = await queue.receive();
        expect(m?.receiveCount).toBe(i);
        await engine.sleep(1_000);
      }
      expect(await queue.receive()).toEqual([]);
      expect(queue.stats.redriven).toBe(1);
      const [dead] = (await dlq.receive()) as [ReceivedMessage];
      expect(dead).toMatchObject({ body: 'poison', receiveCount: 1, sentAt: 0 });
    });
  });

  it('expires a message its retention period after the first send, however often it was received', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, {
        name: 'q',
        retentionSeconds: 60,
        visibilityTimeoutSeconds: 10,
      });
      queue.send({ body: 'old' });
      await queue.receive();
      await engine.sleep(50_000);
      queue.send({ body: 'young' });
      await engine.sleep(10_000);
      const got = await queue.receive({ maxMessages: 10 });
      expect(got.map((m) => m.body)).toEqual(['young']);
      expect(queue.stats.expired).toBe(1);
    });
  });

  it('delays a message by DelaySeconds (at most 900)', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q' });
      expect(() => queue.send({ body: 'x', delaySeconds: 901 })).toThrow(/DelaySeconds/);
      queue.send({ body: 'later', delaySeconds: 900 });
      await engine.sleep(899_999);
      expect(await queue.receive()).toEqual([]);
      await engine.sleep(1);
      expect(await queue.receive()).toHaveLength(1);
    });
  });

  it('answers a long poll as soon as a message arrives, or empty when the wait ends', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q' });
      engine.after(7_000, () => queue.send({ body: 'late' }));
      const started = engine.now();
      const got = await queue.receive({ waitSeconds: 20 });
      expect(got.map((m) => m.body)).toEqual(['late']);
      expect(engine.now() - started).toBe(7_000);
      const waited = engine.now();
      expect(await queue.receive({ waitSeconds: 20 })).toEqual([]);
      expect(engine.now() - waited).toBe(20_000);
    });
  });

  it('wakes a long poll when a visibility timeout runs out', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 5 });
      queue.send({ body: 'a' });
      await queue.receive();
      const started = engine.now();
      const [again] = await queue.receive({ waitSeconds: 20 });
      expect(again?.receiveCount).toBe(2);
      expect(engine.now() - started).toBe(5_000);
    });
  });

  it('counts requests as billed: a batch of ten once, an empty receive too', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q' });
      queue.sendBatch(Array.from({ length: 10 }, (_, i) => ({ body: `m${i}` })));
      const got = await queue.receive({ maxMessages: 10 });
      expect(got).toHaveLength(10);
      queue.deleteBatch(got.map((m) => m.receiptHandle));
      await queue.receive();
      queue.send({ body: 'x'.repeat(100 * 1024) });
      expect(queue.requests.calls).toMatchObject({
        SendMessageBatch: 1,
        ReceiveMessage: 2,
        DeleteMessageBatch: 1,
      });
      expect(queue.requests.emptyReceives).toBe(1);
      // 1 + 1 + 1 + 1, and the 100 KB send counts as two 64 KB chunks.
      expect(queue.requests.billable).toBe(6);
    });
  });

  it('delivers a message again when a delete misses a copy (at-least-once)', async () => {
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, {
        name: 'q',
        visibilityTimeoutSeconds: 30,
        duplicateProbability: 0.5,
      });
      queue.sendBatch(Array.from({ length: 10 }, (_, i) => ({ body: `m${i}` })));
      const first = await queue.receive({ maxMessages: 10 });
      queue.deleteBatch(first.map((m) => m.receiptHandle));
      await engine.sleep(30_000);
      const again = await queue.receive({ maxMessages: 10 });
      expect(queue.stats.missedDeletes).toBeGreaterThan(0);
      expect(again).toHaveLength(queue.stats.missedDeletes);
      expect(again.every((m) => m.receiveCount === 2)).toBe(true);
    });
  });
});
