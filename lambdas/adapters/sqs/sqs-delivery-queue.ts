import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { encodeDeliveryMessage } from '#domain/delivery/message';
import type { EventRef } from '#domain/model';
import type { DeliveryQueue } from '#domain/ports';

/** SQS accepts at most ten entries per batch call. */
const BATCH = 10;
const MAX_ROUNDS = 5;

/** {@link DeliveryQueue} on the SQS delivery queue. */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(events: readonly EventRef[], delaySeconds = 0): Promise<void> {
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

  /** Sends one batch, re-sending only the entries SQS reported as failed. */
  private async sendBatch(events: readonly EventRef[], delaySeconds: number): Promise<void> {
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
