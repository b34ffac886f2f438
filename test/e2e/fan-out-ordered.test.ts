/**
 * An ordered extra endpoint beside a concurrent default one on the same account (issue 32), through the
 * local runtime with real receivers: the ordered endpoint's receiver fails its first calls (and every call
 * until the default endpoint got the whole burst), sees the events' sequences strictly in order, and
 * nothing is attempted there while an earlier event is pending; the default endpoint is not held back.
 */
import { describe, expect, it } from 'vitest';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { reply } from '../support/receiver';
import { waitFor } from '../support/wait';

/** Events of the burst. */
const BURST = 6;
/** The ordered receiver's first calls that fail (the first event's first attempts). */
const FAILURES = 2;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-fan-out-ordered',
    retrySchedule: fastSchedule(1, 2, 4),
    env: { DELIVERY_TIMEOUT_MS: '5000' },
  },
  (started) => {
    harness = started;
  },
);

describe('an ordered extra endpoint beside a concurrent one', { timeout: 120_000 }, () => {
  it('receives the sequences strictly in order while the concurrent default endpoint is not delayed', async () => {
    const tenant = await harness.createTenant('Ordered extra');
    const concurrent = await receiver();
    // Fails until the default endpoint got every event: were the default held back behind the ordered
    // endpoint, neither would ever get the burst.
    const answeredOk = new Set<number>();
    const ordered = await receiver((request) => {
      if (request.index < FAILURES || concurrent.requests.length < BURST) return reply.status(500, 'not yet');
      answeredOk.add(request.index);
      return reply.status(200, 'ok');
    });
    const iban = await harness.createAccount(tenant, concurrent.url);
    const added = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}/endpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: ordered.url, delivery_order: 'ordered' }),
    });
    const text = await added.text();
    expect(added.status, text).toBe(201);
    expect((JSON.parse(text) as { delivery_order: string }).delivery_order).toBe('ordered');

    const burst = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        harness.publish({
          account: iban,
          type: TRANSFER,
          payload: transferPayload({ transfer_id: `tr_${i}` }),
        }),
      ),
    );
    // The default endpoint gets the whole burst while the ordered one still fails every call.
    await concurrent.waitForRequests(BURST);
    expect(answeredOk.size).toBe(0);
    for (const event of burst) await harness.waitForEvent(tenant, event.id, 'success', { timeoutMs: 90_000 });
    await waitFor(async () => answeredOk.size >= BURST, { timeoutMs: 30_000, what: 'the ordered endpoint' });

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
    const sequences = [...sequenceOf.values()].sort((a, b) => a - b);
    expect([...firstSuccess.keys()]).toEqual(sequences);
    // …and no attempt of an event while an earlier one was still pending there.
    for (const r of requests) {
      for (const earlier of sequences.filter((sequence) => sequence < r.sequence)) {
        expect(firstSuccess.get(earlier) ?? Number.POSITIVE_INFINITY, `request ${r.index}`).toBeLessThan(
          r.index,
        );
      }
    }
    const failed = requests.filter((r) => !r.ok).map((r) => r.sequence);
    expect(failed.length).toBeGreaterThanOrEqual(FAILURES);
    expect(new Set(failed)).toEqual(new Set([sequences[0]]));
  });
});
