import { describe, expect, it } from 'vitest';
import { FifoQueue } from '../../../scripts/bench/simulate/aws/sqs/fifo-queue';
import type { ReceivedMessage } from '../../../scripts/bench/simulate/aws/sqs/message';
import { simulate } from './simulate';

describe('SQS FIFO queue', () => {
  it('keeps a group in order and blocked while one of its messages is in flight', async () => {
    await simulate(async (engine) => {
      const queue = new FifoQueue(engine, { name: 'q.fifo', visibilityTimeoutSeconds: 30 });
      for (const [group, body] of [
        ['a', 'a1'],
        ['b', 'b1'],
        ['a', 'a2'],
        ['a', 'a3'],
      ] as const) {
        queue.send({ body, groupId: group, dedupId: body });
      }
      const [first] = (await queue.receive()) as [ReceivedMessage];
      expect(first.body).toBe('a1');
      // a2 waits behind the in-flight a1; b is free.
      const others = await queue.receive({ maxMessages: 10 });
      expect(others.map((m) => m.body)).toEqual(['b1']);
      queue.delete((others[0] as ReceivedMessage).receiptHandle);
      queue.delete(first.receiptHandle);
      const next = await queue.receive({ maxMessages: 10 });
      expect(next.map((m) => m.body)).toEqual(['a2', 'a3']);
      // The visibility timeout of a2 and a3 runs out: they come back in order.
      await engine.sleep(30_000);
      const again = await queue.receive({ maxMessages: 1 });
      expect(again.map((m) => [m.body, m.receiveCount])).toEqual([['a2', 2]]);
    });
  });

  it('receives a group as one batch, the group first, then others', async () => {
    await simulate(async (engine) => {
      const queue = new FifoQueue(engine, { name: 'q.fifo', contentBasedDeduplication: true });
      for (const body of ['x1', 'y1', 'x2', 'y2', 'x3']) queue.send({ body, groupId: body[0] as string });
      const got = await queue.receive({ maxMessages: 4 });
      expect(got.map((m) => m.body)).toEqual(['x1', 'x2', 'x3', 'y1']);
      const xs = got.filter((m) => m.groupId === 'x').map((m) => m.sequenceNumber);
      expect(xs).toEqual([...xs].sort());
    });
  });

  it('drops a send whose deduplication id was seen in the last 5 minutes', async () => {
    await simulate(async (engine) => {
      const queue = new FifoQueue(engine, { name: 'q.fifo' });
      queue.send({ body: 'one', groupId: 'g', dedupId: 'd' });
      await engine.sleep(299_999);
      queue.send({ body: 'dup', groupId: 'g', dedupId: 'd' });
      await engine.sleep(1);
      queue.send({ body: 'two', groupId: 'g', dedupId: 'd' });
      expect(queue.stats).toMatchObject({ sent: 2, deduplicated: 1 });
      expect(() => queue.send({ body: 'no id', groupId: 'g' })).toThrow(/MessageDeduplicationId/);
      expect(() => queue.send({ body: 'delay', groupId: 'g', dedupId: 'e', delaySeconds: 5 })).toThrow(
        /queue-level delay/,
      );
      const first = await queue.receive({ maxMessages: 10 });
      expect(first.map((m) => m.body)).toEqual(['one', 'two']);
    });
  });

  it('redrives a message to a FIFO dead-letter queue, which unblocks its group and restarts retention', async () => {
    await simulate(async (engine) => {
      const dlq = new FifoQueue(engine, { name: 'dlq.fifo', retentionSeconds: 60 });
      const queue = new FifoQueue(engine, {
        name: 'q.fifo',
        visibilityTimeoutSeconds: 10,
        contentBasedDeduplication: true,
        redrive: { deadLetter: dlq, maxReceiveCount: 2 },
      });
      queue.send({ body: 'poison', groupId: 'g' });
      queue.send({ body: 'next', groupId: 'g' });
      for (let i = 0; i < 2; i++) {
        const got = await queue.receive();
        expect(got.map((m) => m.body)).toEqual(['poison']);
        await engine.sleep(10_000);
      }
      const unblocked = await queue.receive();
      expect(unblocked.map((m) => m.body)).toEqual(['next']);
      await engine.sleep(50_000);
      // 70 s after its first send, but only 50 s after it reached the FIFO DLQ: still there.
      const [dead] = (await dlq.receive()) as [ReceivedMessage];
      expect(dead).toMatchObject({ body: 'poison', groupId: 'g', sentAt: 20_000 });
    });
  });

  it('applies the queue-level delay to every message', async () => {
    await simulate(async (engine) => {
      const queue = new FifoQueue(engine, {
        name: 'q.fifo',
        delaySeconds: 5,
        contentBasedDeduplication: true,
      });
      queue.send({ body: 'a', groupId: 'g' });
      expect(await queue.receive()).toEqual([]);
      const started = engine.now();
      expect(await queue.receive({ waitSeconds: 20 })).toHaveLength(1);
      expect(engine.now() - started).toBe(5_000);
    });
  });
});
