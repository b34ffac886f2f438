/**
 * Webhook delivery end to end, the paths that exhaust a cycle: every attempt fails, exactly 20 are made
 * and recorded, the event ends `failed`, and no 21st request follows. Then a failed event is redelivered.
 * The cases run concurrently on one runtime: each waits mostly on the retry schedule.
 */
import { describe, expect, it } from 'vitest';
import type { EventDetailView } from '#http/events/event-view';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { CIRCUIT_NEVER_OPENS, fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { closedPort, reply } from '../support/receiver';
import { sleep } from '../support/wait';

/** 1 s, then 2 s: a cycle of 20 attempts takes about 40 s. */
const SCHEDULE = fastSchedule(1, 2);
const TIMEOUT_MS = 600;
const CYCLE = 20;
/** Longer than the longest wait of the schedule plus a poll: a 21st attempt would have come by then. */
const QUIET_PERIOD_MS = 3_500;
const CYCLE_TEST_TIMEOUT_MS = 120_000;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-failures',
    retrySchedule: SCHEDULE,
    env: { DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS), ENDPOINT_HEALTH: CIRCUIT_NEVER_OPENS },
  },
  (started) => {
    harness = started;
  },
);

/** Publishes one event (a transfer named after the case) to a new account of a new tenant whose webhook URL is `url`. */
async function publishTo(url: string, testCase: string): Promise<{ tenant: SeededTenant; id: string }> {
  const tenant = await harness.createTenant();
  const iban = await harness.createAccount(tenant, url);
  const published = await harness.publish({
    account: iban,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: testCase }),
  });
  expect(published.webhookStatus).toBe('pending');
  return { tenant, id: published.id };
}

/**
 * Waits for the cycle to end `failed` with exactly 20 attempts, then waits a while longer and checks
 * that neither the record nor the receiver saw a 21st attempt.
 */
async function expectExhausted(
  tenant: SeededTenant,
  id: string,
  requestCount?: () => number,
): Promise<EventDetailView> {
  const failed = await harness.waitForEvent(tenant, id, 'failed', { timeoutMs: 100_000 });
  expectCountsConsistent(failed);
  expect(failed.webhook_retries).toBe(CYCLE);
  if (requestCount) expect(requestCount()).toBe(CYCLE);

  await sleep(QUIET_PERIOD_MS);
  const later = await harness.getEvent(tenant, id);
  expectCountsConsistent(later);
  expect(later.webhook_status).toBe('failed');
  expect(later.webhook_retries).toBe(CYCLE);
  expect(later.webhook_deliveries).toEqual(failed.webhook_deliveries);
  if (requestCount) expect(requestCount()).toBe(CYCLE);
  return later;
}

describe.concurrent('a receiver that never accepts', () => {
  it(
    'answering 500: exactly 20 attempts, all recorded as 500, then failed',
    async () => {
      const hook = await receiver(() => reply.status(500, 'internal trouble'));
      const { tenant, id } = await publishTo(hook.url, 'always_500');
      const view = await expectExhausted(tenant, id, () => hook.requests.length);
      for (const attempt of view.webhook_deliveries) {
        expect(attempt).toMatchObject({ response_status: 500, response_body: 'internal trouble' });
        expect(Number.isInteger(attempt.response_time)).toBe(true);
      }
      const bodies = new Set(hook.requests.map((request) => request.body));
      expect(bodies.size).toBe(1);
    },
    CYCLE_TEST_TIMEOUT_MS,
  );

  it(
    'refusing connections (closed port): exactly 20 attempts with status 0 and the reason',
    async () => {
      const port = await closedPort();
      const { tenant, id } = await publishTo(`http://127.0.0.1:${port}/hooks`, 'refused');
      const view = await expectExhausted(tenant, id);
      for (const attempt of view.webhook_deliveries) {
        expect(attempt.response_status).toBe(0);
        expect(attempt.response_body).toMatch(/refused/i);
      }
    },
    CYCLE_TEST_TIMEOUT_MS,
  );

  it(
    'hanging past the delivery timeout: exactly 20 attempts with status 0 and the reason',
    async () => {
      const hook = await receiver(() => reply.hang());
      const { tenant, id } = await publishTo(hook.url, 'hangs');
      const view = await expectExhausted(tenant, id, () => hook.requests.length);
      for (const attempt of view.webhook_deliveries) {
        expect(attempt.response_status).toBe(0);
        expect(attempt.response_body).toMatch(/timed out/i);
        expect(attempt.response_time).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      }
    },
    CYCLE_TEST_TIMEOUT_MS,
  );

  it(
    'answering 301: not followed, exactly 20 attempts recorded as 301',
    async () => {
      const target = await receiver(() => reply.status(200, 'you should not be here'));
      const hook = await receiver(() => reply.redirect(target.url, 301));
      const { tenant, id } = await publishTo(hook.url, 'redirects');
      const view = await expectExhausted(tenant, id, () => hook.requests.length);
      for (const attempt of view.webhook_deliveries) expect(attempt.response_status).toBe(301);
      expect(target.requests).toHaveLength(0);
    },
    CYCLE_TEST_TIMEOUT_MS,
  );

  it(
    'once failed, POST /events/{id}/redeliver starts a new cycle that succeeds; old attempts stay',
    async () => {
      const hook = await receiver(() => reply.status(503, 'down for maintenance'));
      const { tenant, id } = await publishTo(hook.url, 'redeliver_after_failure');
      await expectExhausted(tenant, id, () => hook.requests.length);

      hook.setScript(() => reply.status(200, 'back again'));
      const answer = await harness.api(tenant, 'POST', `/events/${id}/redeliver`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      expect(answer.body).toEqual({ queued: [id] });

      const view = await harness.waitForEvent(tenant, id, 'success', { attempts: CYCLE + 1 });
      expectCountsConsistent(view);
      expect(view.webhook_retries).toBe(CYCLE + 1);
      expect(view.webhook_deliveries.slice(0, CYCLE).every((d) => d.response_status === 503)).toBe(true);
      expect(view.webhook_deliveries[CYCLE]).toMatchObject({
        response_status: 200,
        response_body: 'back again',
      });
      expect(hook.requests).toHaveLength(CYCLE + 1);

      // Delivered: a redelivery is a third cycle (within the cap of three), then none is left.
      const again = await harness.api(tenant, 'POST', `/events/${id}/redeliver`);
      expect(again.status).toBe(202);
      expectCountsConsistent(await harness.waitForEvent(tenant, id, 'success', { attempts: CYCLE + 2 }));
    },
    CYCLE_TEST_TIMEOUT_MS,
  );
});
