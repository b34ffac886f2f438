/**
 * The first-wave stall, end to end through the local runtime with real receivers and a single consumer
 * poller: while that poller's invocation is held by an attempt to a hanging receiver, it pulls the
 * queue's next messages itself, so another account's webhook arrives before the hanging request is
 * released, and the hanging receiver's later events wait without an attempt. A behavioural check, not a
 * timing threshold: without the pull, the only poller would sit out the attempt timeout first.
 */
import { describe, expect, it } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { reply } from '../support/receiver';
import { sleep } from '../support/wait';

/** Long enough that the hanging request is certainly still open while the test looks. */
const TIMEOUT_MS = 15_000;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-held',
    retrySchedule: fastSchedule(1),
    consumerConcurrency: 1,
    env: { DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS) },
  },
  (started) => {
    harness = started;
  },
);

describe('an invocation held by a hanging receiver', () => {
  it('delivers another account’s event while the hanging attempt is in flight, and defers the hanging receiver’s next events', async () => {
    const hanging = await receiver(() => reply.hang());
    const fast = await receiver();
    const tenant = await harness.createTenant();
    const hangingIban = await harness.createAccount(tenant, hanging.url);
    const fastIban = await harness.createAccount(tenant, fast.url);

    const first = await harness.publish({
      account: hangingIban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_n1' }),
    });
    await hanging.waitForRequests(1);
    // The only poller is now held by that request, and once it is open this long its URL is held there.
    await sleep(PULL_WHEN_HELD.heldAfterMs);
    // Two more for the hanging receiver, one for the fast one.
    const later = [
      await harness.publish({
        account: hangingIban,
        type: TRANSFER,
        payload: transferPayload({ transfer_id: 'tr_n2' }),
      }),
      await harness.publish({
        account: hangingIban,
        type: TRANSFER,
        payload: transferPayload({ transfer_id: 'tr_n3' }),
      }),
    ];
    const probe = await harness.publish({ account: fastIban, type: TRANSFER, payload: transferPayload() });
    const [arrived] = await fast.waitForRequests(1, { timeoutMs: TIMEOUT_MS });
    expect(arrived?.headers['webhook-id']).toBe(probe.id);

    // The hanging request is still open: its attempt is not recorded yet, and no other one went out to it.
    const held = await harness.getEvent(tenant, first.id);
    expect(held.webhook_deliveries).toHaveLength(0);
    expect(hanging.requests).toHaveLength(1);
    await harness.waitForEvent(tenant, probe.id, 'success', { attempts: 1 });
    for (const event of later) {
      const view = await harness.getEvent(tenant, event.id);
      expect(view.webhook_status).toBe('pending');
      expect(view.webhook_deliveries).toHaveLength(0);
      expectCountsConsistent(view);
    }

    // The receiver recovers; the hanging attempt times out and is recorded, the deferred events go out.
    hanging.setScript(() => reply.status(200, 'ok'));
    const timedOut = await harness.waitForEvent(tenant, first.id, 'success', { timeoutMs: 60_000 });
    expect(timedOut.webhook_deliveries.map((d) => d.response_status)).toContain(0);
    for (const event of later) {
      const view = await harness.waitForEvent(tenant, event.id, 'success', {
        attempts: 1,
        timeoutMs: 60_000,
      });
      expectCountsConsistent(view);
    }
  }, 120_000);
});
