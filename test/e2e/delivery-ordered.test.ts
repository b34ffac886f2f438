/**
 * Ordered delivery end to end (`delivery_order: ordered`), through the local runtime with real receivers:
 * a burst to an ordered account whose receiver fails its first calls (and every call until the concurrent
 * account's event arrived) is seen in sequence order, no event is attempted while an earlier one is
 * pending, and a concurrent account is not held back meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { reply } from '../support/receiver';

const TEST_TIMEOUT_MS = 120_000;
/** Events of the burst. */
const BURST = 10;
/** The receiver's first calls that fail (the first event's first attempts). */
const FAILURES = 3;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  { label: 'e2e-ordered', retrySchedule: fastSchedule(1, 2, 4), env: { DELIVERY_TIMEOUT_MS: '5000' } },
  (started) => {
    harness = started;
  },
);

describe('ordered delivery', { timeout: TEST_TIMEOUT_MS }, () => {
  it('delivers a burst in sequence order despite failures, without holding a concurrent account back', async () => {
    const tenant = await harness.createTenant();
    const concurrent = await receiver();
    // The ordered account's first event fails until the concurrent account's event has arrived: were that
    // one held back behind the ordered account, neither would ever be delivered.
    const answeredOk = new Set<number>();
    const ordered = await receiver((request) => {
      if (request.index < FAILURES || concurrent.requests.length === 0) return reply.status(500, 'not yet');
      answeredOk.add(request.index);
      return reply.status(200, 'ok');
    });
    const iban = await harness.createAccount(tenant, ordered.url);
    const other = await harness.createAccount(tenant, concurrent.url);
    const put = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhook_url: ordered.url, delivery_order: 'ordered' }),
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { delivery_order: string }).delivery_order).toBe('ordered');

    const [burst, side] = await Promise.all([
      Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          harness.publish({
            account: iban,
            type: TRANSFER,
            payload: transferPayload({ transfer_id: `tr_${i}` }),
          }),
        ),
      ),
      harness.publish({ account: other, type: TRANSFER, payload: transferPayload() }),
    ]);
    await harness.waitForEvent(tenant, side.id, 'success', { timeoutMs: 20_000 });
    for (const event of burst) {
      expectCountsConsistent(await harness.waitForEvent(tenant, event.id, 'success', { timeoutMs: 90_000 }));
    }

    const sequenceOf = new Map(burst.map((event) => [event.id, event.sequence ?? 0]));
    const requests = ordered.requests.map((request) => {
      const body = JSON.parse(request.rawBody.toString('utf8')) as { id: string; sequence: number };
      expect(body.sequence).toBe(sequenceOf.get(body.id));
      return { index: request.index, sequence: body.sequence, ok: answeredOk.has(request.index) };
    });
    const firstSuccess = new Map<number, number>();
    for (const r of requests)
      if (r.ok && !firstSuccess.has(r.sequence)) firstSuccess.set(r.sequence, r.index);
    // Each event's first successful sight in sequence order…
    expect([...firstSuccess.keys()]).toEqual(Array.from({ length: BURST }, (_, i) => i + 1));
    // …and no attempt of an event while an earlier one was still pending.
    for (const r of requests) {
      for (let earlier = 1; earlier < r.sequence; earlier++) {
        expect(firstSuccess.get(earlier) ?? Number.POSITIVE_INFINITY, `request ${r.index}`).toBeLessThan(
          r.index,
        );
      }
    }
    const failed = requests.filter((r) => !r.ok).map((r) => r.sequence);
    expect(failed.length).toBeGreaterThanOrEqual(FAILURES);
    expect(new Set(failed)).toEqual(new Set([1]));
  });
});
