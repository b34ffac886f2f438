/**
 * The delivery queue's message body, `{"id":"<event id>"}`: the one codec that the queue adapter writes
 * with and the batch use-cases read with. The consumer always re-reads the event itself.
 */

/** Body of a delivery-queue message. */
export interface DeliveryMessage {
  readonly id: string;
}

/** The message body for an event. */
export function encodeDeliveryMessage(id: string): string {
  return JSON.stringify({ id } satisfies DeliveryMessage);
}

/** The event id of a `{"id": …}` body, or undefined for a malformed one (dropped, never retried). */
export function decodeDeliveryMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const id = (parsed as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}
