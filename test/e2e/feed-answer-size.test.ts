/**
 * The catch-up feed at its worst through the local runtime: 100 events with the largest payloads, of the
 * characters that grow most when escaped, each delivered in three cycles to a receiver that answers 4 KiB
 * of control characters. Every answer stays within Lambda's 6 MB response (the local API Gateway fails a
 * larger one, as AWS does), and following `Link: next` returns every event exactly once, in order.
 *
 * No type of the catalog takes a 64 KiB payload (their fields are bounded): the largest payload is the
 * point here, so this file runs with the transition to the catalog on (`acceptUnknownEventTypes`), which
 * publishes a type outside it with any JSON object.
 */
import { describe, expect, it } from 'vitest';
import { LAMBDA_RESPONSE_MAX_BYTES } from '#config/limits';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '#domain/event-input';
import { RESPONSE_BODY_LIMIT_BYTES } from '#domain/truncate';
import type { EventDetailView, FeedEventView } from '#http/events/event-view';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { type ApiClient, type ApiResponse, connectApi } from '../support/e2e-http';
import { reply } from '../support/receiver';

const TEST_TIMEOUT_MS = 300_000;
const EVENTS = 100;
const CYCLES = 3;
/** What the receiver answers: the most an attempt keeps, each byte escaped to `\u0001` in JSON. */
const ANSWER = '\u0001'.repeat(RESPONSE_BODY_LIMIT_BYTES);

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  { label: 'e2e-feed-size', retrySchedule: fastSchedule(1, 2), acceptUnknownEventTypes: true },
  (started) => {
    harness = started;
  },
);

/**
 * The `i`th payload: as large as publishing allows, of `"` and `\` (two bytes each in JSON, four once the
 * answer is escaped again inside the Lambda response) after a few control characters.
 */
function payloadOf(i: number): { i: number; s: string } {
  const head = '\u0001\u001f';
  const room = DEFAULT_MAX_PAYLOAD_BYTES - Buffer.byteLength(JSON.stringify({ i, s: head }));
  const payload = { i, s: head + '"\\'.repeat(Math.floor(room / 4)) };
  expect(Buffer.byteLength(JSON.stringify(payload))).toBeGreaterThan(DEFAULT_MAX_PAYLOAD_BYTES - 4);
  return payload;
}

/** The size of the Lambda response that carried an answer: the proxy result as JSON. */
function responseBytes(answer: ApiResponse): number {
  const headers = Object.fromEntries(answer.headers.entries());
  return Buffer.byteLength(JSON.stringify({ statusCode: answer.status, headers, body: answer.text }));
}

/** Replays the whole account, chunk by chunk; the ids queued and the ids used up. */
async function replayAll(
  api: ApiClient,
  apiKey: string,
  iban: string,
): Promise<{ queued: string[]; usedUp: string[] }> {
  const queued: string[] = [];
  const usedUp: string[] = [];
  for (let after = 0, more = true; more; ) {
    const answer = await api.call(`/accounts/${iban}/replay`, {
      method: 'POST',
      key: apiKey,
      body: { after_sequence: after },
    });
    expect(answer.status).toBe(202);
    const chunk = answer.body as {
      queued: string[];
      used_up: string[];
      more: boolean;
      next_after_sequence: number;
    };
    queued.push(...chunk.queued);
    usedUp.push(...chunk.used_up);
    ({ more, next_after_sequence: after } = chunk);
  }
  return { queued, usedUp };
}

describe('the catch-up feed at its largest', { timeout: TEST_TIMEOUT_MS }, () => {
  it('answers every page within 6 MB, and its links return each event once, in sequence order', async () => {
    const api = await connectApi(harness.runtime.baseUrl);
    const tenant = await harness.createTenant();
    const hook = await receiver(() => reply.status(200, ANSWER));
    const iban = await harness.createAccount(tenant, hook.url);
    const published: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const event = await harness.publish({ account: iban, type: 'large_payload', payload: payloadOf(i) });
      expect(event.sequence).toBe(i + 1);
      published.push(event.id);
    }
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      if (cycle > 1) expect((await replayAll(api, tenant.apiKey, iban)).queued).toEqual(published);
      for (const id of published) {
        await harness.waitForEvent(tenant, id, 'success', { attempts: cycle, timeoutMs: 120_000 });
      }
    }
    expect(hook.requests).toHaveLength(EVENTS * CYCLES);
    const detail = await api.call(`/events/${published[0]}`, { key: tenant.apiKey });
    expect(detail.status).toBe(200);
    expect(responseBytes(detail)).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES);
    const attempts = (detail.body as EventDetailView).webhook_deliveries;
    expect(attempts).toHaveLength(CYCLES);
    expect(attempts.every((a) => a.response_body.length > RESPONSE_BODY_LIMIT_BYTES - 100)).toBe(true);

    const seen: FeedEventView[] = [];
    const pageSizes: number[] = [];
    let next: string | undefined = `/accounts/${iban}/events?after_sequence=0&limit=${EVENTS}`;
    while (next !== undefined && pageSizes.length < EVENTS) {
      // Checked against the OpenAPI document too: a feed element is a `FeedEvent`.
      const answer = await api.call(next, { key: tenant.apiKey });
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      expect(responseBytes(answer)).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES);
      const page = answer.body as FeedEventView[];
      seen.push(...page);
      pageSizes.push(page.length);
      const link = answer.headers.get('link');
      next = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
      // The next page starts right after the last event of this one.
      if (next !== undefined) {
        expect(new URL(next).searchParams.get('after_sequence')).toBe(String(page.at(-1)?.sequence));
      }
    }
    // The budget, not the limit, ended the pages.
    expect(pageSizes.length).toBeGreaterThan(1);
    expect(pageSizes[0]).toBeLessThan(EVENTS);
    expect(seen.map((event) => event.sequence)).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
    expect(seen.map((event) => event.id)).toEqual(published);
    seen.forEach((event, i) => {
      expect(event.payload).toEqual(payloadOf(i));
      expect(event).toMatchObject({ webhook_status: 'success', webhook_retries: CYCLES });
    });

    // Three cycles each: a fourth replay sends nothing and names every event.
    expect(await replayAll(api, tenant.apiKey, iban)).toEqual({ queued: [], usedUp: published });
  });
});
