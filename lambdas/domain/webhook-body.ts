/**
 * The webhook body: the exact bytes fixed at publish, sent (and signed) on every attempt.
 */
import type { EventRecord } from './model';
import type { Notice } from './notices/notice';
import { noticePayload } from './notices/notice-payload';
import { renderTimestamp } from './time';
import { joinUrl, pathSegment } from './urls';

/** `_links` of an event. */
export interface EventLinks {
  readonly self: string;
  readonly account: string;
}

/** What {@link webhookBody} needs; the same fields at publish time and in tests. */
export interface WebhookBodyInput {
  readonly id: string;
  readonly type: string;
  /** The version of the type's schema the payload passed; undefined: none (a type outside the catalog). */
  readonly typeVersion?: number | undefined;
  readonly account: string;
  /** The event's place in its account's log: a receiver sees a gap or a stale update from it. */
  readonly sequence: number;
  /** ISO timestamp. */
  readonly triggeredAt: string;
  /** The payload's JSON text, embedded as is. */
  readonly payloadJson: string;
  readonly baseUrl: string;
}

/** Links of an event: its own URL and its account's. */
export function eventLinks(baseUrl: string, record: Pick<EventRecord, 'id' | 'account'>): EventLinks {
  return {
    self: joinUrl(baseUrl, `/events/${pathSegment(record.id)}`),
    account: joinUrl(baseUrl, `/accounts/${pathSegment(record.account)}`),
  };
}

/**
 * The webhook body, `{"id","type","type_version","account","sequence","triggered_at","payload","_links"}`,
 * assembled as text so the payload JSON appears byte for byte as given: the body is built once at publish
 * time and stored, and every attempt signs and sends those same bytes. `type_version` is left out when the
 * event has none, as bodies stored before the catalog have none.
 *
 * @throws TypeError or SyntaxError when `payloadJson` is not the JSON text of an object
 */
export function webhookBody(input: WebhookBodyInput): string {
  // A malformed payload text would make every attempt send broken JSON; refuse it once, here.
  const payload: unknown = JSON.parse(input.payloadJson);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new TypeError('webhookBody: payloadJson must be the JSON text of an object');
  }
  const links = eventLinks(input.baseUrl, input);
  return (
    `{"id":${JSON.stringify(input.id)},"type":${JSON.stringify(input.type)},` +
    (input.typeVersion === undefined ? '' : `"type_version":${input.typeVersion},`) +
    `"account":${JSON.stringify(input.account)},"sequence":${input.sequence},` +
    `"triggered_at":${JSON.stringify(renderTimestamp(input.triggeredAt))},` +
    `"payload":${input.payloadJson},"_links":${JSON.stringify(links)}}`
  );
}

/**
 * The body of a test event (`POST /accounts/{iban}/test-events`): exactly a real webhook's body, built by
 * {@link webhookBody}, with `"sequence":null` (a test takes no place in the account's log; the key stays,
 * so a receiver's parser finds every field it expects) and `"test":true` last. Real bodies carry no
 * `test` field: absent means a real event, and stored events stay as small as they were.
 *
 * @throws TypeError or SyntaxError when `payloadJson` is not the JSON text of an object
 */
export function testWebhookBody(input: Omit<WebhookBodyInput, 'sequence'>): string {
  const body = webhookBody({ ...input, sequence: 0 });
  // The fields before it are JSON strings, in which `"` is escaped: the first match is the sequence.
  const withNull = body.replace(',"sequence":0,"triggered_at":', ',"sequence":null,"triggered_at":');
  return `${withNull.slice(0, -1)},"test":true}`;
}

/**
 * The body of an event stored before sequences, with its new sequence (a migration into its account's
 * log): `"sequence":N` goes before `"triggered_at"`, where {@link webhookBody} puts it; the other bytes,
 * the payload's included, stay as they were. A body that already has one is returned as it is.
 */
export function withSequence(body: string, sequence: number): string {
  const at = body.indexOf(',"triggered_at":');
  if (at < 0 || body.slice(0, at).includes('"sequence":')) return body;
  return `${body.slice(0, at)},"sequence":${sequence}${body.slice(at)}`;
}

/**
 * The body of an operational notice's webhook: an event webhook's envelope, built by the same rules, with
 * `type` the notice's kind, `type_version` the version of its catalog type its payload passed,
 * `"sequence":null` (a notice takes no place in an account's log, as a test
 * event's), `triggered_at` when the notice was decided, `payload` = {@link noticePayload} (what the
 * notice's catalog type describes), and `_links` to the notice (`GET /operational-events/{id}`) and its
 * account. Built at each attempt from the stored notice, so every attempt sends the same bytes.
 */
export function noticeWebhookBody(notice: Notice, typeVersion: number, baseUrl: string): string {
  const links = {
    self: joinUrl(baseUrl, `/operational-events/${pathSegment(notice.id)}`),
    account: joinUrl(baseUrl, `/accounts/${pathSegment(notice.account)}`),
  };
  return (
    `{"id":${JSON.stringify(notice.id)},"type":${JSON.stringify(notice.kind)},"type_version":${typeVersion},` +
    `"account":${JSON.stringify(notice.account)},"sequence":null,` +
    `"triggered_at":${JSON.stringify(renderTimestamp(notice.at))},` +
    `"payload":${JSON.stringify(noticePayload(notice))},"_links":${JSON.stringify(links)}}`
  );
}
