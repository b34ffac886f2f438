/**
 * Per-account sequences and the catch-up feed end to end: concurrent publishers get gap-free sequences,
 * the webhook body carries the sequence, and `GET /accounts/{iban}/events` returns exactly the events
 * after a cursor, ascending, a back-dated one included, paged by `Link: next`.
 */
import { describe, expect, it } from 'vitest';
import type { FeedEventView } from '#http/events/event-view';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { waitFor } from '../support/wait';

const TEST_TIMEOUT_MS = 90_000;
/** Concurrent publishers, each publishing {@link PER_PUBLISHER} events to the same account. */
const PUBLISHERS = 8;
const PER_PUBLISHER = 3;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  { label: 'e2e-sequence', retrySchedule: fastSchedule(1, 2, 4) },
  (started) => {
    harness = started;
  },
);

/** One feed answer: its status, events and `Link` header. */
async function feed(apiKey: string, iban: string, query: string) {
  const response = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}/events${query}`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  });
  return {
    status: response.status,
    link: response.headers.get('link'),
    body: (await response.json()) as unknown,
  };
}

describe.concurrent('sequences and the catch-up feed', { timeout: TEST_TIMEOUT_MS }, () => {
  it('replays the events after a sequence to the receiver, keeping every event’s counts consistent', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const iban = await harness.createAccount(tenant, hook.url);
    const published = [];
    for (let i = 0; i < 3; i++) {
      published.push(
        await harness.publish({
          account: iban,
          type: TRANSFER,
          payload: transferPayload({ transfer_id: `tr_${i}` }),
        }),
      );
    }
    for (const event of published) await harness.waitForEvent(tenant, event.id, 'success');
    const answer = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}/replay`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ after_sequence: 1 }),
    });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({
      queued: [published[1]?.id, published[2]?.id],
      used_up: [],
      more: false,
      next_after_sequence: 3,
    });
    await hook.waitForRequests(5);
    for (const event of published.slice(1)) {
      const view = await harness.waitForEvent(tenant, event.id, 'success', { attempts: 2 });
      expectCountsConsistent(view);
    }
    const first = await harness.getEvent(tenant, published[0]?.id ?? '');
    expect(first.webhook_retries).toBe(1);
    const sequences = hook.requests.map(
      (r) => (JSON.parse(r.rawBody.toString('utf8')) as { sequence: number }).sequence,
    );
    expect(sequences.slice(3).sort()).toEqual([2, 3]);
  });

  it('numbers events of concurrent publishers 1..N with no gap; the feed returns those after a cursor', async () => {
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant);
    const backDated = new Date(Date.now() - 3_600_000).toISOString();
    const published = (
      await Promise.all(
        Array.from({ length: PUBLISHERS }, async (_, p) => {
          const mine = [];
          for (let i = 0; i < PER_PUBLISHER; i++) {
            mine.push(
              await harness.publish({
                account: iban,
                type: TRANSFER,
                payload: transferPayload({ transfer_id: `tr_${p}_${i}` }),
              }),
            );
          }
          return mine;
        }),
      )
    ).flat();
    // Then one that happened an hour ago: last in sequence, first by time; the feed must not skip it.
    published.push(
      await harness.publish({
        account: iban,
        type: TRANSFER,
        payload: transferPayload({ transfer_id: 'tr_late' }),
        triggeredAt: backDated,
      }),
    );
    const total = PUBLISHERS * PER_PUBLISHER + 1;
    const sequences = published.map((event) => event.sequence ?? 0).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: total }, (_, i) => i + 1));

    const bySequence = new Map(published.map((event) => [event.sequence, event.id]));
    const cursor = 5;
    const seen: FeedEventView[] = [];
    let query = `?after_sequence=${cursor}&limit=7`;
    for (let pages = 0; pages < 10; pages++) {
      const answer = await feed(tenant.apiKey, iban, query);
      expect(answer.status).toBe(200);
      const page = answer.body as FeedEventView[];
      seen.push(...page);
      if (answer.link === null) {
        expect(page.length).toBeLessThan(7);
        break;
      }
      query = new URL(/^<([^>]+)>; rel="next"$/.exec(answer.link)?.[1] ?? '').search;
    }
    expect(seen.map((event) => event.sequence)).toEqual(
      Array.from({ length: total - cursor }, (_, i) => cursor + 1 + i),
    );
    expect(seen.map((event) => event.id)).toEqual(seen.map((event) => bySequence.get(event.sequence)));
    const old = published.find((event) => event.triggeredAt === backDated);
    expect(old?.sequence).toBeGreaterThan(cursor);
    expect(seen.some((event) => event.id === old?.id && event.payload !== undefined)).toBe(true);
    expect((await feed(tenant.apiKey, iban, `?after_sequence=${total}`)).body).toEqual([]);
  });

  it('carries the sequence in the webhook body and both views; refuses a limit over 100', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const iban = await harness.createAccount(tenant, hook.url);
    const first = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload(),
    });
    const second = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload(),
    });
    expect([first.sequence, second.sequence]).toEqual([1, 2]);
    await waitFor(() => hook.requests.length >= 2, { what: 'both webhooks' });
    const bodies = hook.requests.map(
      (request) => JSON.parse(request.rawBody.toString('utf8')) as { id: string; sequence: number },
    );
    expect(new Map(bodies.map((body) => [body.id, body.sequence]))).toEqual(
      new Map([
        [first.id, 1],
        [second.id, 2],
      ]),
    );
    expect((await harness.getEvent(tenant, second.id)).sequence).toBe(2);
    const refused = await feed(tenant.apiKey, iban, '?limit=101');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('limit');
    // Another organization's key sees nothing of this account's log.
    const other = await harness.createTenant('Other');
    expect((await feed(other.apiKey, iban, '')).body).toEqual([]);
  });
});
