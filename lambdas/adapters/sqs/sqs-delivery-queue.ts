import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { QueuePull } from '#delivery/held-invocation-port';
import { encodeDeliveryMessage, type QueuedDelivery } from '#domain/delivery-message';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';

/** SQS accepts at most ten entries per batch call. */
const BATCH = 10;
const MAX_ROUNDS = 5;

/** {@link DeliveryQueue} on the SQS delivery queue, and {@link QueuePull} for a held consumer. */
export class SqsDeliveryQueue implements DeliveryQueue, QueuePull {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(events: readonly QueuedDelivery[], delaySeconds = 0): Promise<void> {
    for (let start = 0; start < events.length; start += BATCH) {
      await this.sendBatch(events.slice(start, start + BATCH), delaySeconds);
    }
  }

  async postpone(receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );
  }

  async receive(max: number, waitSeconds: number): Promise<QueueMessage[]> {
    const out = await this.client.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: Math.min(Math.max(1, max), BATCH),
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
      }),
    );
    return (out.Messages ?? []).map((message) => ({
      messageId: message.MessageId ?? '',
      receiptHandle: message.ReceiptHandle ?? '',
      body: message.Body ?? '',
      receiveCount: Number(message.Attributes?.ApproximateReceiveCount) || 1,
      sentAt: Number(message.Attributes?.SentTimestamp) || Date.now(),
    }));
  }

  async delete(receiptHandles: readonly string[]): Promise<void> {
    const failed: string[] = [];
    for (let start = 0; start < receiptHandles.length; start += BATCH) {
      const chunk = receiptHandles.slice(start, start + BATCH);
      const out = await this.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map((handle, index) => ({ Id: String(index), ReceiptHandle: handle })),
        }),
      );
      for (const failure of out.Failed ?? []) failed.push(`${failure.Id}: ${failure.Code}`);
    }
    if (failed.length > 0) throw new Error(`DeleteMessageBatch failed for ${failed.join(', ')}`);
  }

  /** Sends one batch, re-sending only the entries SQS reported as failed. */
  private async sendBatch(events: readonly QueuedDelivery[], delaySeconds: number): Promise<void> {
    let entries: SendMessageBatchRequestEntry[] = events.map((event, index) => ({
      Id: String(index),
      MessageBody: encodeDeliveryMessage(event),
      DelaySeconds: delaySeconds,
    }));
    for (let round = 0; entries.length > 0; round++) {
      if (round >= MAX_ROUNDS) {
        throw new Error(`SendMessageBatch kept failing for ${entries.length} message(s)`);
      }
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** round));
      const out = await this.client.send(
        new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }),
      );
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      entries = entries.filter((entry) => failed.has(entry.Id));
    }
  }
}
