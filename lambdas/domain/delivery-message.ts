/**
 * The delivery queue's message body, `{"id":"<event id>","log":"<orgId>|<IBAN>","seq":N}`, with
 * `"ep":"<endpoint id>"` for an event's delivery to one of its routed endpoints, or
 * `{"id":"<notice id>","ops":"<orgId>","sk":"<sort key>"}` for an operational notice's delivery to its
 * organization's operational webhook (`domain/notices/`): the one codec that the
 * queue adapter writes with and the batch use-cases read with. The log and sequence let the consumer read
 * the event where it is, without its id's claim; `{"id"}` alone names an event stored before sequences
 * (or a message sent before they existed), found through its id (and never routed: `ep` needs the log).
 * The consumer always re-reads the event itself.
 */
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import type { EventRef } from '#domain/model';
import type { NoticeRef } from '#domain/notices/notice';

/**
 * An event's delivery as the queue carries it: the event, and the endpoint when it is for one; or a
 * notice's delivery to its organization's operational webhook.
 */
export type QueuedDelivery = QueuedEventDelivery | QueuedNotice;

/** An event's delivery: the event, and the endpoint when it is for one. */
export interface QueuedEventDelivery extends EventRef {
  /** The routed endpoint the message is for; absent: the event's own message. */
  readonly endpointId?: string | undefined;
  readonly notice?: undefined;
}

/** A notice's delivery to its organization's operational webhook. */
export interface QueuedNotice {
  readonly id: string;
  readonly notice: NoticeRef;
  readonly endpointId?: undefined;
}

/** What a delivery message names: an event id, and where the event is when the message says so. */
export interface DeliveryTarget {
  readonly id: string;
  /** Absent on `{"id"}` messages: the event is found through its id. */
  readonly at?: EventRef | undefined;
  /** The routed endpoint the message is for (only with `at`); absent: the event's own message. */
  readonly endpointId?: string | undefined;
  /** A notice's delivery (then neither `at` nor `endpointId`): where the notice is. */
  readonly notice?: NoticeRef | undefined;
}

/**
 * The delivery a target names, to send it again (a replaced message): where it is (and for which
 * endpoint), or, for an `{"id"}` target, a ref without a sequence, whose message is `{"id"}` again (its
 * organization and account are unknown here and not needed: the consumer finds the event through its id).
 */
export function targetRef(target: DeliveryTarget): QueuedDelivery {
  if (target.notice !== undefined) return { id: target.id, notice: target.notice };
  const ref = target.at ?? { id: target.id, orgId: '', account: '' };
  return target.endpointId === undefined ? ref : { ...ref, endpointId: target.endpointId };
}

/**
 * What tells a batch's messages apart: two messages of one event for one endpoint (or both for the event
 * itself) are one delivery, two for different endpoints are not.
 */
export function deliveryKey(target: DeliveryTarget): string {
  return target.endpointId === undefined ? target.id : `${target.id}#${target.endpointId}`;
}

/** Separates organization and IBAN in `log` (neither contains it). */
const LOG_SEPARATOR = '|';

/**
 * The message body for an event's delivery. One for an endpoint needs the event's sequence (`ep` is
 * read only with the log): without it, it throws rather than become the event's own message, which
 * would fan out again.
 */
export function encodeDeliveryMessage(event: QueuedDelivery): string {
  if (event.notice !== undefined) {
    return JSON.stringify({ id: event.id, ops: event.notice.orgId, sk: event.notice.sortKey });
  }
  if (event.sequence === undefined) {
    if (event.endpointId !== undefined) {
      throw new Error(`a delivery to ${event.endpointId} needs the event's sequence (event ${event.id})`);
    }
    return JSON.stringify({ id: event.id });
  }
  return JSON.stringify({
    id: event.id,
    log: `${event.orgId}${LOG_SEPARATOR}${event.account}`,
    seq: event.sequence,
    ...(event.endpointId === undefined ? {} : { ep: event.endpointId }),
  });
}

/** What a body names, or undefined for a malformed one (dropped, never retried). */
export function decodeDeliveryMessage(body: string): DeliveryTarget | undefined {
  let parsed: {
    id?: unknown;
    log?: unknown;
    seq?: unknown;
    ep?: unknown;
    ops?: unknown;
    sk?: unknown;
  } | null;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return undefined;
  }
  const id = parsed?.id;
  if (typeof id !== 'string' || id === '') return undefined;
  if (parsed?.ops !== undefined || parsed?.sk !== undefined) return noticeTarget(id, parsed?.ops, parsed?.sk);
  const ep = parsed?.ep;
  if (parsed?.log === undefined && parsed?.seq === undefined && ep === undefined) return { id };
  const [orgId = '', account = '', extra] =
    typeof parsed?.log === 'string' ? parsed.log.split(LOG_SEPARATOR) : [];
  const seq = parsed?.seq;
  const wellFormed =
    orgId !== '' && account !== '' && extra === undefined && Number.isSafeInteger(seq) && Number(seq) > 0;
  const endpoint = ep === undefined || (typeof ep === 'string' && ENDPOINT_ID_PATTERN.test(ep));
  if (!wellFormed || !endpoint) return undefined;
  const at = { id, orgId, account, sequence: Number(seq) };
  return ep === undefined ? { id, at } : { id, at, endpointId: ep };
}

/** A notice's message: its organization and sort key, both non-empty strings, and nothing of an event's. */
function noticeTarget(id: string, orgId: unknown, sortKey: unknown): DeliveryTarget | undefined {
  if (typeof orgId !== 'string' || orgId === '' || typeof sortKey !== 'string' || sortKey === '') {
    return undefined;
  }
  return { id, notice: { id, orgId, sortKey } };
}
