/**
 * What an answer weighs inside its Lambda response, and the catch-up feed kept within it: the budgeting
 * function, the feed's early end with its `Link`, and the largest answers the limits allow (one event with
 * every attempt, a feed element, a listing page) measured against Lambda's 6 MB.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '#config/delivery';
import { ANSWER_BODY_MAX_BYTES, FEED_LIMIT, LAMBDA_RESPONSE_MAX_BYTES } from '#config/limits';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { DEFAULT_MAX_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES_CEILING } from '#domain/event-input';
import type { EventRecord } from '#domain/model';
import { answerBesideUrl, RESPONSE_BODY_LIMIT_BYTES } from '#domain/truncate';
import { webhookBody } from '#domain/webhook-body';
import { toFeedAnswer } from '#http/accounts/feed-view';
import { carriedBytes, takeWithinBudget } from '#http/answer-size';
import { toEventDetail, toEventSummary, toFeedEvent } from '#http/events/event-view';
import { json } from '#http/response';
import { base, iban, record } from '../support/event-samples';

/** The payload JSON of `bytes` bytes that escapes most: every character a `"` (2 bytes, 4 carried). */
function quotesPayload(bytes: number): string {
  const text = `{"s":"${'\\"'.repeat((bytes - 8) / 2)}"}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** An event of the sample's account at `sequence` with `payloadJson` as its payload. */
function eventAt(sequence: number, payloadJson: string): EventRecord {
  const id = `0190f4e8-3c1a-7b2e-9f00-${String(sequence).padStart(12, '0')}`;
  const fields = { id, type: record.type, account: iban, sequence, triggeredAt: record.triggeredAt };
  return { ...record, ...fields, body: webhookBody({ ...fields, payloadJson, baseUrl: base }) };
}

/** The Lambda response of an answer, as its runtime sends it: the proxy result as JSON. */
function responseBytes(body: unknown, headers: Record<string, string> = {}): number {
  return Buffer.byteLength(JSON.stringify(json(200, body, headers)));
}

describe('carriedBytes', () => {
  it('counts a text as it travels inside the response: UTF-8, with quotes, backslashes and controls escaped', () => {
    expect(carriedBytes('plain')).toBe(5);
    expect(carriedBytes('"')).toBe(2);
    expect(carriedBytes('\\')).toBe(2);
    expect(carriedBytes('\u0001')).toBe(6);
    expect(carriedBytes('é€')).toBe(5);
    // A JSON body's escaped control character, six bytes, carries seven.
    expect(carriedBytes(JSON.stringify('\u0001'))).toBe(2 + 7 + 2);
  });
});

describe('takeWithinBudget', () => {
  const item = (n: number) => ({ n, text: '"'.repeat(n) });
  const carriedArray = (views: unknown[]) => carriedBytes(JSON.stringify(views));

  it('takes items while the array of their views stays within the budget, measured as carried', () => {
    const items = [10, 20, 30, 40];
    const all = items.map(item);
    const exact = carriedArray(all);
    expect(takeWithinBudget(items, item, exact)).toEqual(all);
    expect(takeWithinBudget(items, item, exact - 1)).toEqual(all.slice(0, 3));
    expect(takeWithinBudget(items, item, carriedArray(all.slice(0, 2)))).toEqual(all.slice(0, 2));
    // Each quote counts twice: a budget on the body's own bytes would have let the third view in.
    const threeAsText = Buffer.byteLength(JSON.stringify(all.slice(0, 3)));
    expect(takeWithinBudget(items, item, threeAsText)).toEqual(all.slice(0, 2));
  });

  it('always takes the first item, and none of an empty list', () => {
    expect(takeWithinBudget([50, 1], item, 10)).toEqual([item(50)]);
    expect(takeWithinBudget([], item, 10)).toEqual([]);
  });
});

describe('toFeedAnswer', () => {
  const query = { afterSequence: 0, limit: FEED_LIMIT };
  /** A full read of the log: the largest default payloads, every character escaping to four bytes. */
  const page = {
    events: Array.from({ length: FEED_LIMIT }, (_, i) =>
      eventAt(i + 1, quotesPayload(DEFAULT_MAX_PAYLOAD_BYTES)),
    ),
    voids: [],
    more: false,
    nextAfterSequence: FEED_LIMIT,
  };

  it('ends a page early within the budget, linking right after the last event it holds', () => {
    const answer = toFeedAnswer(page, base, iban, query);
    const taken = answer.events.length;
    expect(taken).toBeGreaterThan(1);
    expect(taken).toBeLessThan(FEED_LIMIT);
    expect(answer.events.map((event) => event.sequence)).toEqual(
      page.events.slice(0, taken).map((e) => e.sequence),
    );
    expect(answer.link).toBe(
      `<${base}/accounts/${iban}/events?after_sequence=${taken}&limit=${FEED_LIMIT}>; rel="next"`,
    );
    expect(carriedBytes(JSON.stringify(answer.events))).toBeLessThanOrEqual(ANSWER_BODY_MAX_BYTES);
    expect(responseBytes(answer.events, { Link: answer.link ?? '' })).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES);
    // One more event would have passed the budget: the page is as full as it may be.
    const oneMore = page.events.slice(0, taken + 1).map((event) => toFeedEvent(event, base));
    expect(carriedBytes(JSON.stringify(oneMore))).toBeGreaterThan(ANSWER_BODY_MAX_BYTES);
  });

  it('links on from the read when nothing was cut and more may follow; no link at the end of the log', () => {
    const small = {
      events: [eventAt(1, '{}'), eventAt(2, '{}')],
      voids: [],
      more: true,
      nextAfterSequence: 2,
    };
    expect(toFeedAnswer(small, base, iban, { afterSequence: 0, limit: 2 }).link).toBe(
      `<${base}/accounts/${iban}/events?after_sequence=2&limit=2>; rel="next"`,
    );
    const last = toFeedAnswer({ ...small, more: false }, base, iban, query);
    expect(last.events).toHaveLength(2);
    expect(last.link).toBeUndefined();
  });

  it('carries payloads and delivery state, not the attempts', () => {
    const [event] = toFeedAnswer(
      { events: [record], voids: [], more: false, nextAfterSequence: 7 },
      base,
      iban,
      query,
    ).events;
    expect(event).toMatchObject({
      id: record.id,
      payload: { transfer_id: 'tr_01J9ZK3Q' },
      webhook_retries: 2,
    });
    expect(event).not.toHaveProperty('webhook_deliveries');
  });
});

describe('the largest answers the limits allow', () => {
  const url = 'https://hooks.example.com/herald';
  /** An attempt at every bound: the most answer a URL leaves, all control characters (7 bytes carried each). */
  const attempt = {
    deliveredAt: '2026-11-21T12:35:07.900Z',
    responseStatus: 500,
    responseBody: answerBesideUrl('\u0001'.repeat(RESPONSE_BODY_LIMIT_BYTES), url),
    responseTimeMs: 10_000,
    url,
    signingKeys: ['whk_0123456789abcdef', 'whk_fedcba9876543210'],
  };
  /** One more than the cap: two copies racing for a first attempt can both record it. */
  const attempts = MAX_CYCLES * MAX_ATTEMPTS + 1;
  const largest: EventRecord = {
    ...eventAt(1, quotesPayload(MAX_PAYLOAD_BYTES_CEILING)),
    webhookRetries: attempts,
    deliveries: Array.from({ length: attempts }, () => attempt),
  };

  it('fits one event with every attempt and the largest payload in one answer, within the feed budget', () => {
    const detail = toEventDetail(largest, base);
    expect(detail.webhook_deliveries).toHaveLength(attempts);
    const carried = carriedBytes(JSON.stringify(detail));
    // So a feed answer's first event always fits, whatever it holds, and `GET /events/{id}` never fails.
    expect(carried).toBeLessThan(ANSWER_BODY_MAX_BYTES);
    expect(responseBytes(detail)).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES);
  });

  it('keeps a listing page, whose elements have no payload or attempts, far below the limit', () => {
    const longest = { ...largest, type: `a${'.b'.repeat(31)}`, signature: record.signature };
    const listing = Array.from({ length: 100 }, () => toEventSummary(longest, base));
    expect(responseBytes(listing)).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES / 50);
  });
});
