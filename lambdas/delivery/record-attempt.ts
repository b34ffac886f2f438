/**
 * The record phase of a delivery: the attempt on the event, then the endpoint's health, and a cycle that
 * settled `failed` (`event_attempts_exhausted`) or a client certificate near its expiry
 * (`client_certificate_expiring`) announced. An attempt that
 * was sent is always recorded, also when the event's stored item is full (an event stored before payloads
 * were bounded by what the item holds): it is then recorded short, as the event's last, so that the event
 * settles rather than be sent again with each attempt unrecorded.
 */
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import { type DeliveryLedger, EventItemFullError } from '#domain/ports';
import type { DeliveryContext } from './delivery-context';
import { type EndpointDeps, type EndpointNote, release, reportAttempt } from './endpoint-health';
import type { SlotLease } from './endpoint-health-port';
import { announceCertificate, announceExhausted } from './operational-notices';
import type { AfterAttempt } from './retry-rule';
import type { SentAttempt } from './webhook-request';

/** What recording an attempt needs: the event's delivery state and the endpoint's health. */
export interface RecordDeps extends EndpointDeps {
  readonly events: Pick<DeliveryLedger, 'recordAttempt' | 'settlePending'>;
}

/** What an attempt recorded in a full item keeps of the answer. */
export const ITEM_FULL_ANSWER = "not kept: the event's stored item is full, this attempt is its last";

/**
 * Records the attempt on the event, then reports it to the endpoint's health, whatever the record did;
 * an attempt that sent no request only frees the endpoint's slot (it says nothing about the receiver).
 * `next` is what follows the attempt as recorded: the event's last when its item was full.
 */
export async function record(
  deps: RecordDeps,
  context: DeliveryContext,
  event: EventRecord,
  endpoint: Endpoint,
  sent: SentAttempt,
  next: AfterAttempt,
  lease: SlotLease | undefined,
): Promise<{ readonly recorded: EventRecord; readonly note: EndpointNote; readonly next: AfterAttempt }> {
  let recorded: { readonly event: EventRecord; readonly next: AfterAttempt };
  let note: EndpointNote;
  try {
    recorded = await recordWithin(deps, event, sent.attempt, next);
  } finally {
    note = sent.notSent
      ? await freeSlot(deps, endpoint, lease)
      : await reportAttempt(deps, context, endpoint, sent.attempt, next.receiverWaitSeconds, lease);
  }
  // A 410 ends the cycle too, but its endpoint's `endpoint_disabled` tells it, not each event's notice.
  if (recorded.next.status === 'failed' && sent.attempt.responseStatus !== 410)
    note = await exhausted(deps, endpoint, recorded.event, note);
  note = await expiring(deps, endpoint, note);
  return { recorded: recorded.event, note, next: recorded.next };
}

/**
 * Announces the client certificate the endpoint presents when it expires soon (once per certificate: a
 * mark read with the endpoint), reporting (not throwing) a failure.
 */
async function expiring(deps: RecordDeps, endpoint: Endpoint, note: EndpointNote): Promise<EndpointNote> {
  try {
    await announceCertificate(deps, endpoint);
    return note;
  } catch (noticeError) {
    return { ...note, noticeError };
  }
}

/**
 * Announces the event's cycle at the endpoint exhausted (`event_attempts_exhausted`), reporting (not
 * throwing) a failure: the attempt and the event's settling stand whatever the notice does.
 */
async function exhausted(
  deps: RecordDeps,
  endpoint: Endpoint,
  event: EventRecord,
  note: EndpointNote,
): Promise<EndpointNote> {
  if (deps.notices === undefined) return note;
  try {
    // An account from before endpoint ids gets one now (once, on this rare path).
    const id = endpoint.id ?? (await deps.health.endpointId(endpoint.iban, endpoint.orgId));
    if (id !== undefined) await announceExhausted(deps.notices, endpoint, id, event, deps.now());
    return note;
  } catch (noticeError) {
    return { ...note, noticeError };
  }
}

/**
 * The attempt recorded as it is; in a full item, recorded short and settling the event (`failed` unless
 * it succeeded: no later attempt could be recorded either); when not even that fits, the event settles
 * `failed` without it.
 */
async function recordWithin(
  deps: Pick<RecordDeps, 'events'>,
  event: EventRecord,
  attempt: DeliveryAttempt,
  next: AfterAttempt,
): Promise<{ readonly event: EventRecord; readonly next: AfterAttempt }> {
  try {
    return { event: await deps.events.recordAttempt(event, attempt, next.status, next.nextAttemptAt), next };
  } catch (error) {
    if (!(error instanceof EventItemFullError)) throw error;
  }
  const last: AfterAttempt =
    next.status === 'success'
      ? next
      : { status: 'failed', retryAfterSeconds: 0, receiverWaitSeconds: next.receiverWaitSeconds };
  const { url: _url, ...kept } = attempt;
  const short = { ...kept, responseBody: ITEM_FULL_ANSWER };
  try {
    return { event: await deps.events.recordAttempt(event, short, last.status), next: last };
  } catch (error) {
    if (!(error instanceof EventItemFullError)) throw error;
  }
  await deps.events.settlePending(event, 'failed');
  return { event: { ...event, webhookStatus: 'failed' }, next: { ...last, status: 'failed' } };
}

/** Frees the endpoint's slot the attempt held, reporting (not throwing) a failure: health is advisory. */
async function freeSlot(
  deps: RecordDeps,
  endpoint: Endpoint,
  lease: SlotLease | undefined,
): Promise<EndpointNote> {
  try {
    await release(deps, endpoint, lease);
    return {};
  } catch (endpointError) {
    return { endpointError };
  }
}
