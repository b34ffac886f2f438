import {
  ChangeMessageVisibilityCommand,
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type QueueLink, type QueueLinkOptions, startQueueLink } from '../../scripts/local/queue-link';
import { type IsolatedResources, isolatedResources } from '../support/resources';
import { sleep, waitFor } from '../support/wait';

let resources: IsolatedResources;
const links: QueueLink[] = [];

beforeEach(async () => {
  // Redrive after 2 receives keeps the DLQ case fast; the visibility timeout stays the real 720 s, so a
  // message only comes back early when a handler shortened its visibility.
  resources = await isolatedResources({ label: 'queue', maxReceiveCount: 2 });
});

afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.stop()));
  await resources.destroy();
});

interface Delivery {
  readonly body: string;
  readonly receiveCount: number;
  readonly record: SQSRecord;
  readonly at: number;
}

/** Starts a link whose handler records every message and answers with `respond`. */
async function recordingLink(
  respond: (event: SQSEvent) => Promise<SQSBatchResponse | undefined> = async () => undefined,
  options: Partial<QueueLinkOptions> = {},
): Promise<{ deliveries: Delivery[]; errors: unknown[] }> {
  const deliveries: Delivery[] = [];
  const errors: unknown[] = [];
  const link = await startQueueLink({
    queueUrl: resources.queueUrl,
    client: resources.sqs,
    concurrency: 1,
    onError: (error) => errors.push(error),
    ...options,
    handler: async (event) => {
      for (const record of event.Records) {
        const receiveCount = Number(record.attributes.ApproximateReceiveCount);
        deliveries.push({ body: record.body, receiveCount, record, at: Date.now() });
      }
      return respond(event);
    },
  });
  links.push(link);
  return { deliveries, errors };
}

async function messageCounts(queueUrl: string): Promise<{ visible: number; inFlight: number }> {
  const { Attributes } = await resources.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return {
    visible: Number(Attributes?.ApproximateNumberOfMessages),
    inFlight: Number(Attributes?.ApproximateNumberOfMessagesNotVisible),
  };
}

/** What the consumer does for a retry: shorten the visibility, then report the message. */
async function retryLater(record: SQSRecord, seconds: number): Promise<void> {
  await resources.sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: resources.queueUrl,
      ReceiptHandle: record.receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
}

describe('queue link', () => {
  it('delivers a message as a Lambda SQS record and deletes it after success', async () => {
    await resources.sqs.send(
      new SendMessageCommand({
        QueueUrl: resources.queueUrl,
        MessageBody: '{"id":"e1"}',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'delivery' } },
      }),
    );
    const { deliveries } = await recordingLink();
    await waitFor(() => deliveries.length > 0, { what: 'the message' });
    expect(deliveries[0]?.record).toMatchObject({
      messageId: expect.any(String),
      receiptHandle: expect.any(String),
      body: '{"id":"e1"}',
      md5OfBody: expect.stringMatching(/^[0-9a-f]{32}$/),
      eventSource: 'aws:sqs',
      eventSourceARN: resources.queueArn,
      awsRegion: 'us-east-1',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d+$/),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
        SenderId: expect.any(String),
      },
      messageAttributes: { kind: { dataType: 'String', stringValue: 'delivery' } },
    });
    await waitFor(
      async () => {
        const counts = await messageCounts(resources.queueUrl);
        return counts.visible === 0 && counts.inFlight === 0;
      },
      { what: 'the delete' },
    );
    expect(deliveries).toHaveLength(1);
  });

  it('keeps only reported failures: they return after the visibility the handler set', async () => {
    await resources.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: resources.queueUrl,
        Entries: [
          { Id: '1', MessageBody: 'ok' },
          { Id: '2', MessageBody: 'retry' },
        ],
      }),
    );
    const { deliveries } = await recordingLink(async (event) => {
      const failures: SQSBatchResponse['batchItemFailures'] = [];
      for (const record of event.Records) {
        if (record.body === 'retry' && record.attributes.ApproximateReceiveCount === '1') {
          await retryLater(record, 1);
          failures.push({ itemIdentifier: record.messageId });
        }
      }
      return { batchItemFailures: failures };
    });
    await waitFor(() => deliveries.some((d) => d.body === 'retry' && d.receiveCount === 2), {
      what: 'the retried message',
    });
    await sleep(1_500);
    expect(deliveries.map((d) => [d.body, d.receiveCount])).toEqual(
      expect.arrayContaining([
        ['ok', 1],
        ['retry', 1],
        ['retry', 2],
      ]),
    );
    expect(deliveries).toHaveLength(3);
    const [first, second] = deliveries.filter((d) => d.body === 'retry');
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(await messageCounts(resources.queueUrl)).toEqual({ visible: 0, inFlight: 0 });
  });

  it('deletes nothing when the handler throws', async () => {
    await resources.destroy();
    resources = await isolatedResources({ label: 'queue', maxReceiveCount: 2, visibilityTimeoutSeconds: 1 });
    await resources.sqs.send(new SendMessageCommand({ QueueUrl: resources.queueUrl, MessageBody: 'x' }));
    let calls = 0;
    const { deliveries, errors } = await recordingLink(async () => {
      calls += 1;
      if (calls === 1) throw new Error('handler failed');
      return undefined;
    });
    // The queue's visibility timeout (1 s here) brings the message back.
    await waitFor(() => deliveries.length >= 2, { what: 'the redelivery' });
    expect(deliveries.map((d) => d.receiveCount)).toEqual([1, 2]);
    expect(errors).toEqual([expect.objectContaining({ message: 'handler failed' })]);
  });

  it('moves a message to the DLQ after maxReceiveCount receives, where another link picks it up', async () => {
    await resources.sqs.send(new SendMessageCommand({ QueueUrl: resources.queueUrl, MessageBody: 'poison' }));
    const { deliveries } = await recordingLink(async (event) => {
      for (const record of event.Records) await retryLater(record, 0);
      return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
    });
    const dead: SQSRecord[] = [];
    links.push(
      await startQueueLink({
        queueUrl: resources.dlqUrl,
        client: resources.sqs,
        handler: async (event) => {
          dead.push(...event.Records);
        },
      }),
    );
    await waitFor(() => dead.length > 0, { what: 'the dead letter' });
    expect(deliveries.map((d) => d.receiveCount)).toEqual([1, 2]);
    expect(dead[0]).toMatchObject({ body: 'poison', eventSourceARN: resources.dlqArn });
    await waitFor(async () => (await messageCounts(resources.dlqUrl)).inFlight === 0, {
      what: 'the DLQ delete',
    });
  });

  it('stops within a couple of seconds', async () => {
    const link = await startQueueLink({
      queueUrl: resources.queueUrl,
      client: resources.sqs,
      concurrency: 3,
      handler: async () => undefined,
    });
    await sleep(300);
    const started = Date.now();
    await link.stop();
    await link.stop();
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
