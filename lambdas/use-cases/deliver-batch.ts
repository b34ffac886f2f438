import type { DeliveryQueue } from '#domain/ports';
import { type DeliveryDeps, type DeliveryOutcome, deliverEvent } from './deliver-event';

/** A received queue message, as much of it as delivery needs. */
export interface QueueMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
}

/** What a batch needs beyond single deliveries. */
export interface BatchDeps extends DeliveryDeps {
  readonly queue: Pick<DeliveryQueue, 'postpone'>;
  /** Observes each outcome (logs and metrics live in the handler). */
  readonly observe: (id: string, outcome: DeliveryOutcome) => void;
  /** Observes a message that could not be processed and will come back. */
  readonly observeError: (messageId: string, error: unknown) => void;
}

/**
 * Delivers a batch concurrently and returns the ids of the messages to keep: those whose retry was
 * scheduled by moving their visibility timeout, and those that hit an unexpected error (they come back
 * after the queue's visibility timeout). Every other message is done and may be deleted.
 */
export async function deliverBatch(deps: BatchDeps, messages: readonly QueueMessage[]): Promise<string[]> {
  const seen = new Set<string>();
  const keep = await Promise.all(
    messages.map(async (message): Promise<string | undefined> => {
      const id = eventIdOf(message.body);
      if (id === undefined) {
        deps.observeError(message.messageId, new Error('message body is not {"id": "<event id>"}'));
        return undefined;
      }
      // Two copies of one event in a batch would race for the same attempt: the first one carries on.
      if (seen.has(id)) return undefined;
      seen.add(id);
      try {
        const outcome = await deliverEvent(deps, id);
        deps.observe(id, outcome);
        // A scheduled retry, or a duplicate that came early: hide the message until it is due.
        if (outcome.kind !== 'retry' && outcome.kind !== 'not-due') return undefined;
        await deps.queue.postpone(message.receiptHandle, outcome.retryAfterSeconds);
        return message.messageId;
      } catch (error) {
        deps.observeError(message.messageId, error);
        return message.messageId;
      }
    }),
  );
  return keep.filter((id): id is string => id !== undefined);
}

/** The event id of a `{"id": …}` message, or undefined for a malformed one (dropped, never retried). */
export function eventIdOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const id = (parsed as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}
