import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { SqsEventSource, type SqsHandler } from '../../../scripts/bench/simulate/aws/lambda/sqs-event-source';
import { StandardQueue } from '../../../scripts/bench/simulate/aws/sqs/standard-queue';
import type { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';
import { simulate } from './simulate';

/** A queue holding `count` messages `m0`, `m1`, …, and an event source on it running `handler`. */
function consumer(
  engine: Scheduler,
  count: number,
  handler: (engine: Scheduler) => SqsHandler,
  options: {
    maximumConcurrency?: number;
    startConcurrency?: number;
    timeoutSeconds?: number;
    visibilityTimeoutSeconds?: number;
  } = {},
) {
  const queue = new StandardQueue(engine, {
    name: 'q',
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 600,
  });
  for (let i = 0; i < count; i += 10) {
    queue.sendBatch(Array.from({ length: Math.min(10, count - i) }, (_, j) => ({ body: `m${i + j}` })));
  }
  const source = new SqsEventSource(engine, {
    queue,
    batchSize: 10,
    reportBatchItemFailures: true,
    timeoutSeconds: options.timeoutSeconds ?? 120,
    coldStart: 200,
    ...(options.maximumConcurrency === undefined ? {} : { maximumConcurrency: options.maximumConcurrency }),
    ...(options.startConcurrency === undefined ? {} : { scaling: { start: options.startConcurrency } }),
    init: () => handler(engine),
  });
  return { queue, source };
}

const bodies = (event: SQSEvent) => event.Records.map((record) => record.body);

describe('Lambda SQS event source', () => {
  it('starts with five concurrent batches and adds up to 300 a minute while messages remain', async () => {
    const seen: Record<number, number> = {};
    await simulate(async (engine) => {
      const { source } = consumer(engine, 60_000, (e) => async () => {
        await e.sleep(2_000);
        return undefined;
      });
      source.start();
      for (const at of [500, 30_000, 60_000]) {
        await engine.sleep(at - engine.now());
        seen[at] = source.concurrency;
      }
      source.stop();
    });
    expect(seen[500]).toBe(5);
    expect(seen[30_000]).toBeGreaterThanOrEqual(140);
    expect(seen[30_000]).toBeLessThanOrEqual(155);
    expect(seen[60_000]).toBeGreaterThanOrEqual(290);
    expect(seen[60_000]).toBeLessThanOrEqual(305);
  });

  it('keeps scaling while every poller is busy and messages wait', async () => {
    let at20s = 0;
    await simulate(async (engine) => {
      const { source } = consumer(engine, 10_000, (e) => async () => {
        await e.sleep(30_000);
        return undefined;
      });
      source.start();
      await engine.sleep(20_000);
      at20s = source.concurrency;
      source.stop();
    });
    // Five at first, five more a second: about 100 after 20 s, although no poller was free to receive.
    expect(at20s).toBeGreaterThanOrEqual(95);
    expect(at20s).toBeLessThanOrEqual(105);
  });

  it('gathers a batch until it is full or the batching window ends', async () => {
    const sizes: { size: number; at: number }[] = [];
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 600 });
      const source = new SqsEventSource(engine, {
        queue,
        batchSize: 50,
        maxBatchingWindowSeconds: 2,
        timeoutSeconds: 60,
        coldStart: 0,
        invokeOverhead: 0,
        scaling: { initial: 1, ceiling: 1 },
        init: () => async (event) => {
          sizes.push({ size: event.Records.length, at: engine.now() });
          return undefined;
        },
      });
      // One message every 300 ms from 50 ms on, and 60 at once at 5 s.
      for (let i = 0; i < 20; i++) engine.at(50 + i * 300, () => queue.send({ body: `slow${i}` }));
      engine.at(5_000, () => {
        for (let i = 0; i < 60; i += 10) {
          queue.sendBatch(Array.from({ length: 10 }, (_, j) => ({ body: `burst${i + j}` })));
        }
      });
      source.start();
      await engine.sleep(20_000);
      source.stop();
    });
    // The window closes 2 s after the first message: 7 messages; a full batch goes at once (5 s).
    expect(sizes).toEqual([
      { size: 7, at: 2_050 },
      { size: 7, at: 4_150 },
      { size: 50, at: 5_000 },
      { size: 16, at: 7_000 },
    ]);
  });

  it('never runs more invocations than maximumConcurrency, and scales back when the queue empties', async () => {
    await simulate(async (engine) => {
      const { source, queue } = consumer(
        engine,
        2_000,
        (e) => async () => {
          await e.sleep(500);
          return undefined;
        },
        { maximumConcurrency: 20 },
      );
      source.start();
      await engine.sleep(120_000);
      expect(source.stats.peakConcurrency).toBe(20);
      expect(queue.size).toBe(0);
      expect(source.stats.messagesDeleted).toBe(2_000);
      // With a maximum concurrency the event source scales back to five, not two.
      expect(source.targetConcurrency).toBe(5);
      source.stop();
    });
  });

  it('starts scaled up when told (earlier traffic), runs that many batches at once, and still scales back', async () => {
    await simulate(async (engine) => {
      const { source, queue } = consumer(
        engine,
        1_000,
        (e) => async () => {
          await e.sleep(10_000);
          return undefined;
        },
        { maximumConcurrency: 100, startConcurrency: 100 },
      );
      source.start();
      await engine.sleep(1_000);
      // All 100 batches at once in the first second; from five, +5 a second, it would be five.
      expect(source.concurrency).toBe(100);
      await engine.sleep(60_000);
      expect(queue.size).toBe(0);
      expect(source.stats.messagesDeleted).toBe(1_000);
      // Receives that come back empty take it down again, as from any other start.
      const after = source.targetConcurrency;
      await engine.sleep(60_000);
      expect(source.targetConcurrency).toBeLessThan(after);
      source.stop();
    });
  });

  it('deletes all but the reported failures, which come back after the visibility timeout', async () => {
    const batches: string[][] = [];
    await simulate(async (engine) => {
      const { source, queue } = consumer(
        engine,
        10,
        () =>
          async (event): Promise<SQSBatchResponse> => {
            batches.push(bodies(event));
            const failed = event.Records.filter(
              (record) => record.body === 'm3' && record.attributes.ApproximateReceiveCount === '1',
            );
            return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
          },
        { visibilityTimeoutSeconds: 30 },
      );
      source.start();
      await engine.sleep(60_000);
      expect(queue.size).toBe(0);
      source.stop();
    });
    expect(batches).toEqual([['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9'], ['m3']]);
  });

  it('deletes nothing when the handler throws or names an item not in the batch', async () => {
    await simulate(async (engine) => {
      let calls = 0;
      const { source, queue } = consumer(
        engine,
        10,
        () => async () => {
          calls++;
          if (calls === 1) throw new Error('crash');
          return { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] };
        },
        { visibilityTimeoutSeconds: 30 },
      );
      source.start();
      await engine.sleep(59_000);
      source.stop();
      expect(calls).toBe(2);
      expect(source.stats).toMatchObject({ handlerErrors: 1, invalidResponses: 1, messagesDeleted: 0 });
      expect(queue.size).toBe(10);
    });
  });

  it('freezes a timed-out invocation, discards its environment and returns its batch', async () => {
    const starts: number[] = [];
    let ranAfterTimeout = false;
    await simulate(async (engine) => {
      let calls = 0;
      const { source, queue } = consumer(
        engine,
        1,
        (e) => async () => {
          calls++;
          starts.push(e.now());
          if (calls === 1) {
            await e.sleep(200_000);
            ranAfterTimeout = true;
          }
          return undefined;
        },
        { timeoutSeconds: 120, visibilityTimeoutSeconds: 720 },
      );
      source.start();
      await engine.sleep(1_000_000);
      source.stop();
      expect(source.stats).toMatchObject({ timeouts: 1, invocations: 2, messagesDeleted: 1 });
      expect(source.environments.stats).toMatchObject({ coldStarts: 2, discarded: 1 });
      expect(queue.size).toBe(0);
    });
    expect(ranAfterTimeout).toBe(false);
    // The batch came back when the visibility timeout (720 s from its receive) ran out.
    expect(starts).toHaveLength(2);
    expect(starts[1]).toBeGreaterThan(720_000);
    expect(starts[1]).toBeLessThan(721_000);
  });

  it('reuses warm environments and cold-starts new ones only as concurrency grows', async () => {
    await simulate(async (engine) => {
      const { source } = consumer(
        engine,
        200,
        (e) => async () => {
          await e.sleep(100);
          return undefined;
        },
        { maximumConcurrency: 2 },
      );
      source.start();
      await engine.sleep(60_000);
      source.stop();
      expect(source.stats.invocations).toBe(20);
      expect(source.environments.stats.coldStarts).toBe(2);
    });
  });

  it('lets a handler receive and settle more messages itself while its batch holds the only slot', async () => {
    const handled: string[] = [];
    await simulate(async (engine) => {
      const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 600 });
      const source = new SqsEventSource(engine, {
        queue,
        batchSize: 10,
        reportBatchItemFailures: true,
        timeoutSeconds: 120,
        // One poller only, so that nothing but the invocation itself can take the later messages.
        scaling: { initial: 1, ceiling: 1 },
        init: () => async (event) => {
          if (!bodies(event).includes('stuck')) return undefined;
          // The batch's own delivery hangs for 10 s; meanwhile the invocation serves what else is queued.
          const hanging = engine.sleep(10_000);
          while (handled.length < 5) {
            const extra = await queue.receive({ maxMessages: 10, waitSeconds: 5 });
            handled.push(...extra.map((m) => m.body));
            if (extra.length > 0) queue.deleteBatch(extra.map((m) => m.receiptHandle));
          }
          await hanging;
          return undefined;
        },
      });
      queue.send({ body: 'stuck' });
      source.start();
      await engine.sleep(1_000);
      queue.sendBatch(Array.from({ length: 5 }, (_, i) => ({ body: `later${i}` })));
      await engine.sleep(60_000);
      source.stop();
      expect(queue.size).toBe(0);
      expect(source.stats).toMatchObject({ invocations: 1, peakConcurrency: 1, messagesDeleted: 1 });
    });
    expect(handled).toEqual(['later0', 'later1', 'later2', 'later3', 'later4']);
  });
});
