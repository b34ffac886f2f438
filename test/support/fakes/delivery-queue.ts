/** An in-memory {@link DeliveryQueue} that records what the use-cases asked of it. */

import { encodeDeliveryMessage } from '#domain/delivery/message';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';

/** The fake. */
export class FakeDeliveryQueue implements DeliveryQueue {
  readonly sent: { id: string; delaySeconds: number }[] = [];
  readonly postponed: { receiptHandle: string; seconds: number }[] = [];

  async enqueue(ids: readonly string[], delaySeconds = 0): Promise<void> {
    for (const id of ids) this.sent.push({ id, delaySeconds });
  }

  async postpone(receiptHandle: string, seconds: number): Promise<void> {
    this.postponed.push({ receiptHandle, seconds });
  }
}

/** A received message for an event, with the codec's body. */
export function message(id: string, options: Partial<QueueMessage> = {}): QueueMessage {
  return {
    messageId: `m-${id}`,
    receiptHandle: `r-${id}`,
    body: encodeDeliveryMessage(id),
    receiveCount: 1,
    sentAt: Date.parse('2026-11-20T10:00:00.000Z'),
    ...options,
  };
}
