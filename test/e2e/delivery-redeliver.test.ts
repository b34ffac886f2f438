/**
 * Redelivery, reset and the dead-letter reconciler end to end: API calls and dead letters start new
 * attempts through the real queue, consumer and receiver.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#adapters/dynamodb/items';
import type { DeliveryAttempt } from '#domain/model';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { CIRCUIT_NEVER_OPENS, fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { reply } from '../support/receiver';
import { sleep } from '../support/wait';

/** Per test: generous, a retry cycle on a busy two-core machine can take a while. */
const TEST_TIMEOUT_MS = 90_000;
const SCHEDULE = fastSchedule(1, 2);
const CYCLE = 20;
/** Longer than the longest wait of the schedule plus a poll. */
const QUIET_PERIOD_MS = 3_500;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-redeliver',
    retrySchedule: SCHEDULE,
    env: { DELIVERY_TIMEOUT_MS: '2000', ENDPOINT_HEALTH: CIRCUIT_NEVER_OPENS },
  },
  (started) => {
    harness = started;
  },
);

function failedAttempt(status = 500): DeliveryAttempt {
  return {
    deliveredAt: new Date().toISOString(),
    responseStatus: status,
    responseBody: 'arranged failure',
    responseTimeMs: 3,
  };
}

/** Publishes a transfer (its id `transferId`) to an account without a webhook URL: skipped. */
async function publishSkipped(iban: string, transferId: string): Promise<string> {
  const published = await harness.publish({
    account: iban,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: transferId }),
  });
  expect(published.webhookStatus).toBe('skipped');
  return published.id;
}

function expectProblem(answer: { status: number; headers: Headers; body: unknown }, status: number): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ status });
}

describe.concurrent('POST /events/{id}/redeliver', { timeout: TEST_TIMEOUT_MS }, () => {
  it('sends a delivered event again in a new cycle; 404 for another organization’s or an unknown event', async () => {
    const owner = await harness.createTenant('Owner');
    const stranger = await harness.createTenant('Stranger');
    const hook = await receiver();
    const iban = await harness.createAccount(owner, hook.url);
    const { id } = await harness.publish({ account: iban, type: TRANSFER, payload: transferPayload() });
    expectCountsConsistent(await harness.waitForEvent(owner, id, 'success'));

    expectProblem(await harness.api(stranger, 'POST', `/events/${id}/redeliver`), 404);
    const again = await harness.api(owner, 'POST', `/events/${id}/redeliver`);
    expect(again.status).toBe(202);
    await hook.waitForRequests(2);
    const redelivered = await harness.waitForEvent(owner, id, 'success', { attempts: 2 });
    expectCountsConsistent(redelivered);
    expect(hook.requests[1]?.rawBody.equals(hook.requests[0]?.rawBody ?? Buffer.alloc(0))).toBe(true);
    expectProblem(
      await harness.api(owner, 'POST', '/events/0190c2a4-7f5e-7a1b-8c3d-4e5f6a7b8c9d/redeliver'),
      404,
    );

    // A pending event of another organization is not the owner's to bring forward.
    const pending = await harness.quietPendingEvent(owner, hook.url);
    expectProblem(await harness.api(stranger, 'POST', `/events/${pending.id}/redeliver`), 404);

    // The stranger's skipped event is not the owner's to redeliver either.
    const strangerAccount = await harness.createAccount(stranger);
    const strangers = await publishSkipped(strangerAccount, 'not_yours');
    expectProblem(await harness.api(owner, 'POST', `/events/${strangers}/redeliver`), 404);

    await sleep(QUIET_PERIOD_MS);
    const view = await harness.getEvent(owner, id);
    expectCountsConsistent(view);
    expect(view).toMatchObject({ webhook_status: 'success', webhook_retries: 2 });
    expect(hook.requests).toHaveLength(2);
    expect(await harness.getEvent(owner, pending.id)).toMatchObject({ webhook_status: 'pending' });
    const untouched = await harness.getEvent(stranger, strangers);
    expectCountsConsistent(untouched);
    expect(untouched).toMatchObject({ webhook_status: 'skipped', webhook_retries: 0 });
  });

  it('gives a delivered event three cycles in all: a fourth redelivery or replay sends nothing', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(() => reply.status(200, 'ok'));
    const iban = await harness.createAccount(tenant, hook.url);
    const { id } = await harness.publish({ account: iban, type: TRANSFER, payload: transferPayload() });
    await harness.waitForEvent(tenant, id, 'success');
    for (let cycle = 2; cycle <= 3; cycle++) {
      const again = await harness.api(tenant, 'POST', `/events/${id}/redeliver`);
      expect(again.status, JSON.stringify(again.body)).toBe(202);
      expectCountsConsistent(await harness.waitForEvent(tenant, id, 'success', { attempts: cycle }));
    }
    const refused = await harness.api(tenant, 'POST', `/events/${id}/redeliver`);
    expectProblem(refused, 409);
    expect(JSON.stringify(refused.body)).toContain('used all 3 delivery cycles');
    const replay = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}/replay`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ after_sequence: 0 }),
    });
    expect(replay.status).toBe(202);
    expect(await replay.json()).toEqual({ queued: [], used_up: [id], more: false, next_after_sequence: 1 });
    await sleep(QUIET_PERIOD_MS);
    expect(hook.requests).toHaveLength(3);
    expect(await harness.getEvent(tenant, id)).toMatchObject({
      webhook_status: 'success',
      webhook_retries: 3,
    });
  });

  it('delivers a skipped event once its account has a webhook URL and it is redelivered', async () => {
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant);
    const id = await publishSkipped(iban, 'late_subscriber');
    const hook = await receiver(() => reply.status(202, 'accepted'));
    await harness.setWebhookUrl(tenant, iban, hook.url);

    const answer = await harness.api(tenant, 'POST', `/events/${id}/redeliver`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toEqual({ queued: [id] });

    const view = await harness.waitForEvent(tenant, id, 'success');
    expectCountsConsistent(view);
    expect(view.webhook_retries).toBe(1);
    expect(view.webhook_deliveries[0]).toMatchObject({ response_status: 202, response_body: 'accepted' });
    expect(hook.requests).toHaveLength(1);
    expect(JSON.parse(hook.requests[0]?.body ?? '{}')).toMatchObject({
      id,
      type: TRANSFER,
      payload: { transfer_id: 'late_subscriber' },
    });
  });
});

describe('POST /management/webhooks/reset', { timeout: TEST_TIMEOUT_MS }, () => {
  it('re-queues every failed and skipped event of the calling organization, and only those', async () => {
    const tenant = await harness.createTenant('Resetting');
    const other = await harness.createTenant('Bystander');
    const hook = await receiver();

    // Skipped: an account without webhook URL.
    const quiet = await harness.createAccount(tenant);
    const skipped = [await publishSkipped(quiet, 'skipped_one'), await publishSkipped(quiet, 'skipped_two')];
    // Failed: one recorded failure, then settled as failed.
    const failing = await harness.quietPendingEvent(tenant, hook.url);
    await harness.events.recordAttempt(failing, failedAttempt(), 'failed');
    // Delivered: must stay as it is.
    const delivered = await harness.publish({
      account: failing.iban,
      type: TRANSFER,
      payload: transferPayload(),
    });
    expectCountsConsistent(await harness.waitForEvent(tenant, delivered.id, 'success'));
    // Another organization's skipped event.
    const bystanderAccount = await harness.createAccount(other);
    const bystanders = await publishSkipped(bystanderAccount, 'someone_else');

    await harness.setWebhookUrl(tenant, quiet, hook.url);
    const answer = await harness.api<{ queued: string[] }>(tenant, 'POST', '/management/webhooks/reset');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect([...answer.body.queued].sort()).toEqual([...skipped, failing.id].sort());

    for (const id of skipped) {
      const view = await harness.waitForEvent(tenant, id, 'success');
      expectCountsConsistent(view);
      expect(view.webhook_retries).toBe(1);
    }
    const retried = await harness.waitForEvent(tenant, failing.id, 'success');
    expectCountsConsistent(retried);
    expect(retried.webhook_deliveries.map((d) => d.response_status)).toEqual([500, 200]);

    await sleep(QUIET_PERIOD_MS);
    const fine = await harness.getEvent(tenant, delivered.id);
    expectCountsConsistent(fine);
    expect(fine).toMatchObject({ webhook_status: 'success', webhook_retries: 1 });
    const bystander = await harness.getEvent(other, bystanders);
    expectCountsConsistent(bystander);
    expect(bystander).toMatchObject({ webhook_status: 'skipped', webhook_retries: 0 });
    // One request per re-queued event, plus the delivered event's single one.
    expect(hook.requests).toHaveLength(skipped.length + 2);
  });
});

describe('POST /management/webhooks/reset with nothing to reset', { timeout: TEST_TIMEOUT_MS }, () => {
  it('answers 202 with an empty list', async () => {
    const tenant = await harness.createTenant();
    const answer = await harness.api(tenant, 'POST', '/management/webhooks/reset');
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ queued: [], more: false });
  });
});

describe.concurrent('dead-letter reconciler', { timeout: TEST_TIMEOUT_MS }, () => {
  it('re-queues a dead-lettered pending event with attempts left, which then gets delivered', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(() => reply.status(200, 'finally'));
    const quiet = await harness.quietPendingEvent(tenant, hook.url);
    const { id } = quiet;
    for (let i = 0; i < 3; i++) await harness.events.recordAttempt(quiet, failedAttempt(), 'pending');

    await harness.sendMessage(id, harness.runtime.dlqUrl);
    const view = await harness.waitForEvent(tenant, id, 'success');
    expectCountsConsistent(view);
    expect(view.webhook_deliveries.map((d) => d.response_status)).toEqual([500, 500, 500, 200]);
    expect(hook.requests).toHaveLength(1);
  });

  it('marks a dead-lettered pending event whose cycle has 20 attempts failed, without a request', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const quiet = await harness.quietPendingEvent(tenant, hook.url);
    const { id } = quiet;
    for (let i = 0; i < CYCLE; i++) await harness.events.recordAttempt(quiet, failedAttempt(), 'pending');
    const pending = await harness.getEvent(tenant, id);
    expectCountsConsistent(pending);
    expect(pending).toMatchObject({ webhook_status: 'pending', webhook_retries: CYCLE });

    await harness.sendMessage(id, harness.runtime.dlqUrl);
    const view = await harness.waitForEvent(tenant, id, 'failed');
    expectCountsConsistent(view);
    expect(view.webhook_retries).toBe(CYCLE);

    await sleep(QUIET_PERIOD_MS);
    expect(hook.requests).toHaveLength(0);
    const later = await harness.getEvent(tenant, id);
    expectCountsConsistent(later);
    expect(later).toMatchObject({ webhook_status: 'failed', webhook_retries: CYCLE });
  });

  it('counts the attempts of the current cycle only: 20 earlier ones do not exhaust a new cycle', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(() => reply.status(200, 'second cycle'));
    const quiet = await harness.quietPendingEvent(tenant, hook.url);
    const { id } = quiet;
    for (let i = 0; i < CYCLE; i++) await harness.events.recordAttempt(quiet, failedAttempt(), 'pending');
    // As if a redelivery had started a new cycle after those 20 (set directly, independent of startCycle).
    await harness.documents.send(
      new UpdateCommand({
        TableName: harness.runtime.tableName,
        Key: keys.eventAt(quiet),
        UpdateExpression: 'SET cycle_base = webhook_retries',
      }),
    );

    await harness.sendMessage(id, harness.runtime.dlqUrl);
    const view = await harness.waitForEvent(tenant, id, 'success');
    expectCountsConsistent(view);
    expect(view.webhook_retries).toBe(CYCLE + 1);
    expect(view.webhook_deliveries[CYCLE]).toMatchObject({
      response_status: 200,
      response_body: 'second cycle',
    });
    expect(hook.requests).toHaveLength(1);
  });
});

describe.concurrent('consumer', { timeout: TEST_TIMEOUT_MS }, () => {
  it('settles a queued event whose cycle already has 20 attempts as failed, without a request', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const quiet = await harness.quietPendingEvent(tenant, hook.url);
    const { id } = quiet;
    for (let i = 0; i < CYCLE; i++) await harness.events.recordAttempt(quiet, failedAttempt(), 'pending');

    await harness.sendMessage(id);
    const view = await harness.waitForEvent(tenant, id, 'failed');
    expectCountsConsistent(view);
    expect(view.webhook_retries).toBe(CYCLE);
    await sleep(QUIET_PERIOD_MS);
    expect(hook.requests).toHaveLength(0);
    expectCountsConsistent(await harness.getEvent(tenant, id));
  });
});
