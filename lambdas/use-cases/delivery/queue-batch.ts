/**
 * The one batch path of Herald's queue consumers (delivery and dead-letter reconciliation): decode each
 * delivery message, handle one message per event concurrently, and return the messages to keep.
 */
import { type DeliveryTarget, decodeDeliveryMessage } from '#domain/delivery-message';
import type { EventRecord } from '#domain/model';
import type { EventReads, QueueMessage } from '#domain/ports';

/**
 * The event a message names, read consistently: where the message says it is (no claim read), or, for
 * an `{"id"}` message, through its id. Undefined when it is gone, including when another event holds the
 * message's place.
 */
export async function readTarget(
  events: EventReads,
  target: DeliveryTarget,
): Promise<EventRecord | undefined> {
  if (target.at === undefined) return events.getEvent(target.id, { consistent: true });
  const event = await events.readEvent(target.at, { consistent: true });
  // An event never moves within or between logs, so another id at (log, seq) means the message outlived
  // its event (the account was erased and re-created, its log starting again at 1). The message is stale:
  // treated as gone (the consumer drops it, the reconciler counts it settled), never as the other event,
  // whose own message delivers it.
  return event?.id === target.id ? event : undefined;
}

/** `done`: delete the message; `keep`: it comes back (its visibility was set, or it failed). */
export type MessageFate = 'done' | 'keep';

/**
 * Handles a batch and returns the ids of the messages to keep (see {@link runMessage}).
 */
export async function runBatch(
  messages: readonly QueueMessage[],
  handle: (target: DeliveryTarget, message: QueueMessage) => Promise<MessageFate>,
  onError: (messageId: string, error: unknown) => void,
): Promise<string[]> {
  const seen = new Set<string>();
  const fates = await Promise.all(messages.map((message) => runMessage(seen, message, handle, onError)));
  return messages.filter((_, index) => fates[index] === 'keep').map((message) => message.messageId);
}

/**
 * Handles one message of a batch whose events are `seen` while in flight here. A malformed body is
 * reported and done (it can never succeed); a second message for an event in flight is done (the first
 * one carries on); a message whose handling throws is reported and kept, so it comes back after the
 * queue's visibility timeout. Once a handling ends its event leaves `seen`: a message that comes back
 * into the same invocation (a held one keeps pulling) may be the event's only one, the same message
 * postponed or its replacement, and is handled again rather than deleted as a copy.
 */
export async function runMessage(
  seen: Set<string>,
  message: QueueMessage,
  handle: (target: DeliveryTarget, message: QueueMessage) => Promise<MessageFate>,
  onError: (messageId: string, error: unknown) => void,
): Promise<MessageFate> {
  const target = decodeDeliveryMessage(message.body);
  if (target === undefined) {
    onError(message.messageId, new Error('message body is not {"id": "<event id>", "log", "seq"}'));
    return 'done';
  }
  if (seen.has(target.id)) return 'done';
  seen.add(target.id);
  try {
    return await handle(target, message);
  } catch (error) {
    onError(message.messageId, error);
    return 'keep';
  } finally {
    seen.delete(target.id);
  }
}
