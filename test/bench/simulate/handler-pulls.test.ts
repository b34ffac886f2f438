/**
 * A handler that pulls messages from its own queue inside an invocation (the held-invocation design of
 * issue 19's stall fix): ReceiveMessage, DeleteMessageBatch and ChangeMessageVisibility through the SQS
 * client stand-in, billed as requests, beside the event source's own polling and deletes.
 */
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import { SqsEventSource, type SqsHandler } from '../../../scripts/bench/simulate/aws/lambda/sqs-event-source';
import { StandardQueue } from '../../../scripts/bench/simulate/aws/sqs/standard-queue';
import type { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';
import { SimSqsClient } from '../../../scripts/bench/simulate/ports/sim-sqs-client';
import { simulate } from './simulate';

const URL = 'https://sqs.example/q';

/** A queue of `count` messages, its client, and an event source running `handler` (one invocation at a time). */
function pulling(engine: Scheduler, count: number, handler: (sqs: SimSqsClient) => SqsHandler) {
  const queue = new StandardQueue(engine, { name: 'q', visibilityTimeoutSeconds: 30 });
  for (let i = 0; i < count; i += 10) {
    queue.sendBatch(Array.from({ length: Math.min(10, count - i) }, (_, j) => ({ body: `m${i + j}` })));
  }
  const sqs = new SimSqsClient(engine, new Map([[URL, queue]]));
  const source = new SqsEventSource(engine, {
    queue,
    batchSize: 10,
    maximumConcurrency: 2,
    scaling: { initial: 1 },
    reportBatchItemFailures: true,
    timeoutSeconds: 20,
    coldStart: 0,
    init: () => handler(sqs),
  });
  return { queue, sqs, source };
}

/** Pulls up to ten more messages as Herald’s held invocation does (a long poll of up to 1 s). */
async function pull(sqs: SimSqsClient): Promise<Message[]> {
  const out = (await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: URL,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: PULL_WHEN_HELD.receiveWaitSeconds,
      MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
    }),
  )) as { Messages?: Message[] };
  return out.Messages ?? [];
}

describe('a handler pulling from its own queue', () => {
  it('receives, deletes and postpones messages itself, billed as requests beside the event source', async () => {
    const seen = new Map<string, number>();
    await simulate(async (engine) => {
      const { queue, sqs, source } = pulling(engine, 14, (client) => async (event) => {
        for (const record of event.Records) seen.set(record.body, (seen.get(record.body) ?? 0) + 1);
        const pulled = await pull(client);
        const [postponed, ...done] = pulled;
        if (done.length > 0) {
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: URL,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
            }),
          );
          for (const m of done) seen.set(String(m.Body), (seen.get(String(m.Body)) ?? 0) + 1);
        }
        if (postponed) {
          await client.send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: URL,
              ReceiptHandle: postponed.ReceiptHandle,
              VisibilityTimeout: 60,
            }),
          );
        }
        return { batchItemFailures: [] };
      });
      source.start();
      await engine.sleep(200_000);
      source.stop();
      // Every message was handled once and deleted: by the event source (its batch) or by the handler.
      expect(queue.size).toBe(0);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      expect(seen.size).toBe(14);
      expect(sqs.requests.calls.ReceiveMessage).toBeGreaterThanOrEqual(2);
      expect(sqs.requests.calls.DeleteMessageBatch).toBeGreaterThanOrEqual(1);
      expect(sqs.requests.calls.ChangeMessageVisibility).toBeGreaterThanOrEqual(1);
      // The queue bills the handler's calls with the event source's own receives and deletes.
      expect(queue.requests.calls.ReceiveMessage).toBeGreaterThan(sqs.requests.calls.ReceiveMessage);
      expect(queue.requests.billable).toBeGreaterThanOrEqual(sqs.requests.total);
    });
    // The postponed message came back after 60 s and reached the handler through the event source.
    expect(seen.size).toBe(14);
  });

  it('leaves what a timed-out invocation pulled to come back after the visibility timeout', async () => {
    const receives: number[] = [];
    await simulate(async (engine) => {
      let first = true;
      const { queue, source } = pulling(engine, 20, (client) => async (event) => {
        if (first) {
          first = false;
          await pull(client);
          await engine.sleep(60_000); // past the 20 s timeout: frozen, never deletes what it pulled
        }
        receives.push(event.Records.length);
        return { batchItemFailures: [] };
      });
      source.start();
      await engine.sleep(25_000);
      // Ten in the killed batch and ten it pulled are in flight; the rest of the queue is empty.
      expect(queue.size).toBe(20);
      await engine.sleep(60_000);
      source.stop();
      expect(queue.size).toBe(0);
    });
    // All twenty came back through the event source: the killed batch and what it had pulled.
    expect(receives.reduce((a, b) => a + b, 0)).toBe(20);
  });
});
