import type { SQSRecord } from 'aws-lambda';
import type { QueueMessage } from '#domain/ports';

/** The queue messages of a Lambda SQS event, with the receive count and send time the consumers use. */
export function toQueueMessages(records: readonly SQSRecord[]): QueueMessage[] {
  return records.map((record) => ({
    messageId: record.messageId,
    receiptHandle: record.receiptHandle,
    body: record.body,
    receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
    sentAt: Number(record.attributes.SentTimestamp) || Date.now(),
  }));
}
