/**
 * The delivery queue's message body, `{"id":"<event id>","log":"<orgId>|<IBAN>","seq":N}`: the one codec
 * that the queue adapter writes with and the batch use-cases read with. The log and sequence let the
 * consumer read the event where it is, without its id's claim; `{"id"}` alone names an event stored
 * before sequences (or a message sent before they existed), found through its id. The consumer always
 * re-reads the event itself.
 */
import type { EventRef } from '#domain/model';

/** What a delivery message names: an event id, and where the event is when the message says so. */
export interface DeliveryTarget {
  readonly id: string;
  /** Absent on `{"id"}` messages: the event is found through its id. */
  readonly at?: EventRef | undefined;
}

/**
 * The event a target names, to send it again (a replaced message): where it is, or, for an `{"id"}`
 * target, a ref without a sequence, whose message is `{"id"}` again (its organization and account are
 * unknown here and not needed: the consumer finds the event through its id).
 */
export function targetRef(target: DeliveryTarget): EventRef {
  return target.at ?? { id: target.id, orgId: '', account: '' };
}

/** Separates organization and IBAN in `log` (neither contains it). */
const LOG_SEPARATOR = '|';

/** The message body for an event. */
export function encodeDeliveryMessage(event: EventRef): string {
  if (event.sequence === undefined) return JSON.stringify({ id: event.id });
  return JSON.stringify({
    id: event.id,
    log: `${event.orgId}${LOG_SEPARATOR}${event.account}`,
    seq: event.sequence,
  });
}

/** What a body names, or undefined for a malformed one (dropped, never retried). */
export function decodeDeliveryMessage(body: string): DeliveryTarget | undefined {
  let parsed: { id?: unknown; log?: unknown; seq?: unknown } | null;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return undefined;
  }
  const id = parsed?.id;
  if (typeof id !== 'string' || id === '') return undefined;
  if (parsed?.log === undefined && parsed?.seq === undefined) return { id };
  const [orgId = '', account = '', extra] =
    typeof parsed?.log === 'string' ? parsed.log.split(LOG_SEPARATOR) : [];
  const seq = parsed?.seq;
  const wellFormed =
    orgId !== '' && account !== '' && extra === undefined && Number.isSafeInteger(seq) && Number(seq) > 0;
  return wellFormed ? { id, at: { id, orgId, account, sequence: Number(seq) } } : undefined;
}
