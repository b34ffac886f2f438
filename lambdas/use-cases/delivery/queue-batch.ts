/**
 * The one batch path of Herald's queue consumers (delivery and dead-letter reconciliation): decode each
 * delivery message, handle one message per event concurrently, and return the messages to keep.
 */
import { type DeliveryTarget, decodeDeliveryMessage } from '#domain/delivery/message';
import type { EventRecord } from '#domain/model';
import type { EventStore, QueueMessage } from '#domain/ports';

/**
 * The event a message names, read consistently: where the message says it is (no claim read), or, for
 * an `{"id"}` message, through its id.
 */
export function readTarget(
  events: Pick<EventStore, 'getEvent' | 'readEvent'>,
  target: DeliveryTarget,
): Promise<EventRecord | undefined> {
  return target.at === undefined
    ? events.getEvent(target.id, { consistent: true })
    : events.readEvent(target.at, { consistent: true });
}

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
  handle: (target: DeliveryTarget, message: QueueMessage) => Promise<MessageFate>,
  onError: (messageId: string, error: unknown) => void,
): Promise<string[]> {
  const seen = new Set<string>();
  const keep = await Promise.all(
    messages.map(async (message): Promise<string | undefined> => {
      const target = decodeDeliveryMessage(message.body);
      if (target === undefined) {
        onError(message.messageId, new Error('message body is not {"id": "<event id>", "log", "seq"}'));
        return undefined;
      }
      if (seen.has(target.id)) return undefined;
      seen.add(target.id);
      try {
        return (await handle(target, message)) === 'keep' ? message.messageId : undefined;
      } catch (error) {
        onError(message.messageId, error);
        return message.messageId;
      }
    }),
  );
  return keep.filter((id): id is string => id !== undefined);
}
