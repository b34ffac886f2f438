/**
 * The one batch path of Herald's queue consumers (delivery and dead-letter reconciliation): decode each
 * `{"id"}` message, handle one message per event concurrently, and return the messages to keep.
 */
import { decodeDeliveryMessage } from '#domain/delivery/message';
import type { QueueMessage } from '#domain/ports';

/** `done`: delete the message; `keep`: it comes back (its visibility was set, or it failed). */
export type MessageFate = 'done' | 'keep';

/**
 * Handles a batch and returns the ids of the messages to keep. A malformed body is reported and dropped
 * (it can never succeed); a second message for an event already in the batch is dropped (the first one
 * carries on); a message whose handling throws is reported and kept, so it comes back after the queue's
 * visibility timeout.
 */
export async function runBatch(
  messages: readonly QueueMessage[],
  handle: (id: string, message: QueueMessage) => Promise<MessageFate>,
  onError: (messageId: string, error: unknown) => void,
): Promise<string[]> {
  const seen = new Set<string>();
  const keep = await Promise.all(
    messages.map(async (message): Promise<string | undefined> => {
      const id = decodeDeliveryMessage(message.body);
      if (id === undefined) {
        onError(message.messageId, new Error('message body is not {"id": "<event id>"}'));
        return undefined;
      }
      if (seen.has(id)) return undefined;
      seen.add(id);
      try {
        return (await handle(id, message)) === 'keep' ? message.messageId : undefined;
      } catch (error) {
        onError(message.messageId, error);
        return message.messageId;
      }
    }),
  );
  return keep.filter((id): id is string => id !== undefined);
}
