/**
 * Ordered delivery end to end (`delivery_order: ordered`), through the local runtime with real receivers:
 * a burst to an ordered account whose receiver fails its first calls is seen in sequence order, no event is
 * attempted while an earlier one is pending, and a concurrent account is not held back meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { failTimes } from '../support/receiver';

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
    const ordered = await receiver(failTimes(FAILURES));
    const concurrent = await receiver();
    const iban = await harness.createAccount(tenant, ordered.url);
    const other = await harness.createAccount(tenant, concurrent.url);
    const put = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhook_url: ordered.url, delivery_order: 'ordered' }),
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { delivery_order: string }).delivery_order).toBe('ordered');

    const startedAt = Date.now();
    const [burst, side] = await Promise.all([
      Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          harness.publish({ account: iban, type: 'credit_transfer_status_change', payload: { i } }),
        ),
      ),
      harness.publish({ account: other, type: 'credit_transfer_status_change', payload: {} }),
    ]);
    // The concurrent account's event is delivered while the ordered account's first event still fails.
    await harness.waitForEvent(tenant, side.id, 'success', { timeoutMs: 20_000 });
    const sideDoneAfterMs = Date.now() - startedAt;
    for (const event of burst) {
      expectCountsConsistent(await harness.waitForEvent(tenant, event.id, 'success', { timeoutMs: 90_000 }));
    }
    const orderedDoneAfterMs = Date.now() - startedAt;
    expect(sideDoneAfterMs).toBeLessThan(orderedDoneAfterMs);

    const sequenceOf = new Map(burst.map((event) => [event.id, event.sequence ?? 0]));
    const requests = ordered.requests.map((request) => {
      const body = JSON.parse(request.rawBody.toString('utf8')) as { id: string; sequence: number };
      expect(body.sequence).toBe(sequenceOf.get(body.id));
      return { index: request.index, sequence: body.sequence, ok: request.index >= FAILURES };
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
    expect(requests.filter((r) => !r.ok).map((r) => r.sequence)).toEqual(Array(FAILURES).fill(1));
  });
});
