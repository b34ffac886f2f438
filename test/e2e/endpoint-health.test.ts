/**
 * Endpoint health end to end, through the local runtime with real loopback receivers: the circuit opens
 * and closes, deferrals record nothing, Retry-After is respected, 410 disables, a failing endpoint is
 * disabled after the (shortened) period, enabling with recover_since redelivers, and a slow endpoint
 * holds at most its concurrency.
 */
import { describe, expect, it } from 'vitest';
import type { AccountView } from '#http/accounts/account-view';
import type { OperationalEventView } from '#http/organizations/operational-event-view';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { failTimes, type Receiver, reply } from '../support/receiver';
import { waitFor } from '../support/wait';

/** Open after 3 failures for 2 s (4 s at most), 1 slot when degraded, slow from 0.5 s, disable after 8 s. */
const POLICY = {
  failureThreshold: 3,
  openBaseSeconds: 2,
  openMaxSeconds: 4,
  concurrency: 1,
  slowMs: 500,
  autoDisableAfterSeconds: 8,
};

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-health',
    retrySchedule: fastSchedule(1),
    env: { DELIVERY_TIMEOUT_MS: '1000', ENDPOINT_HEALTH: JSON.stringify(POLICY) },
  },
  (started) => {
    harness = started;
  },
);

async function accountHealth(tenant: SeededTenant, iban: string): Promise<AccountView['webhook_health']> {
  const answer = await harness.api<AccountView>(tenant, 'GET', `/accounts/${iban}`);
  expect(answer.status).toBe(200);
  return answer.body.webhook_health;
}

/** The organization's operational notices, as `GET /operational-events` lists them (newest first). */
async function notices(tenant: SeededTenant): Promise<OperationalEventView[]> {
  const answer = await harness.api<OperationalEventView[]>(tenant, 'GET', '/operational-events?per_page=20');
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The kinds of the organization's operational notices, in the order of their transitions. */
async function noticeKinds(tenant: SeededTenant): Promise<string[]> {
  return (await notices(tenant)).map((notice) => notice.type).reverse();
}

async function publishMany(iban: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      (
        await harness.publish({
          account: iban,
          type: TRANSFER,
          payload: transferPayload({ transfer_id: `tr_${i}` }),
        })
      ).id,
    );
  }
  return ids;
}

/**
 * Every event is consistent, and the receiver saw exactly the attempts the events recorded. An attempt
 * whose request arrived is recorded right after its answer, so the two counts may differ by the attempts
 * in flight for a moment: they must meet, and never does a record lack its request.
 */
async function expectEveryAttemptRecorded(tenant: SeededTenant, ids: readonly string[], target: Receiver) {
  await waitFor(
    async () => {
      const requests = target.requests.length;
      let recorded = 0;
      for (const id of ids) {
        const view = await harness.getEvent(tenant, id);
        expectCountsConsistent(view);
        recorded += view.webhook_deliveries.length;
      }
      expect(recorded).toBeLessThanOrEqual(target.requests.length);
      return recorded === requests && target.requests.length === requests;
    },
    { timeoutMs: 10_000, intervalMs: 100, what: 'every request the receiver got to be recorded' },
  );
}

describe('endpoint health', () => {
  it('opens the circuit after repeated failures, defers without recording, and closes on a probe', async () => {
    // Failing until the test has seen the circuit open: a probe that succeeded before a slow poll looked
    // would close it unseen.
    const target = await receiver(() => reply.status(500, 'not yet'));
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant, target.url);
    const ids = await publishMany(iban, 6);
    await target.waitForRequests(3, { timeoutMs: 20_000 });
    const open = await waitFor(
      async () => {
        const health = await accountHealth(tenant, iban);
        return health.circuit_open_until !== null && health;
      },
      { timeoutMs: 20_000, what: 'the circuit to open' },
    );
    expect(open.state).toBe('degraded');
    expect(open.consecutive_failures).toBeGreaterThanOrEqual(POLICY.failureThreshold);
    const failures = target.requests.length;
    target.setScript(() => reply.status(200, 'ok'));
    // While open, messages come and go without an attempt: the invariant holds throughout.
    await expectEveryAttemptRecorded(tenant, ids, target);
    for (const id of ids) await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 40_000 });
    expect(await accountHealth(tenant, iban)).toMatchObject({ state: 'healthy', consecutive_failures: 0 });
    await expectEveryAttemptRecorded(tenant, ids, target);
    // One probe closed it: once the receiver answered again, no failed request came.
    expect(target.requests.slice(failures).length).toBe(ids.length);
  }, 90_000);

  it('announces a run of failures once it is failing, then its recovery, once each', async () => {
    // Four failures (the 4th announces the run failing), then the endpoint answers again. Four events at
    // once fail within a few seconds, well inside this file's short auto-disable period.
    const target = await receiver(failTimes(4, reply.status(503, 'maintenance')));
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant, target.url);
    for (const id of await publishMany(iban, 4)) {
      await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    }
    await waitFor(async () => (await noticeKinds(tenant)).includes('endpoint_recovered'), {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'the recovery to be announced',
    });
    const later = await publishMany(iban, 2);
    for (const other of later) await harness.waitForEvent(tenant, other, 'success', { timeoutMs: 20_000 });
    // The run may have passed half of this file's short auto-disable period (8 s) while its circuit was open:
    // announced between the two, once.
    const kinds = await noticeKinds(tenant);
    expect(kinds.filter((kind) => kind !== 'endpoint_disabling_soon')).toEqual([
      'endpoint_failing',
      'endpoint_recovered',
    ]);
    expect(kinds.slice(1, -1).every((kind) => kind === 'endpoint_disabling_soon')).toBe(true);
    expect(new Set(kinds).size).toBe(kinds.length);
    const failing = (await notices(tenant)).find((n) => n.type === 'endpoint_failing');
    expect(failing).toMatchObject({
      account: iban,
      consecutive_failures: 4,
      last_answer: { status: 503, body_excerpt: 'maintenance' },
    });
    expect(failing?.endpoint_id).toMatch(/^ep_/);
  }, 90_000);

  it('waits at least the Retry-After of a 429 before the next attempt', async () => {
    const target = await receiver(failTimes(1, reply.status(429, 'slow down', { 'Retry-After': '4' })));
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant, target.url);
    const [id = ''] = await publishMany(iban, 1);
    const view = await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 30_000 });
    expect(view.webhook_deliveries.map((d) => d.response_status)).toEqual([429, 200]);
    const [first, second] = target.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(4_000);
  }, 60_000);

  it('disables on 410; later events settle skipped unsent; enable with recover_since redelivers them', async () => {
    const target = await receiver(failTimes(1, reply.status(410, 'gone')));
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant, target.url);
    const [gone = ''] = await publishMany(iban, 1);
    const failed = await harness.waitForEvent(tenant, gone, 'failed', { timeoutMs: 20_000 });
    expect(failed.webhook_deliveries.map((d) => d.response_status)).toEqual([410]);
    // The consumer records the attempt first and the endpoint's health right after it.
    const disabled = await waitFor(
      async () => {
        const health = await accountHealth(tenant, iban);
        return health.state === 'disabled' && health;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'the endpoint to be disabled' },
    );
    expect(disabled.reason).toBe('receiver answered 410 Gone');

    const later = await publishMany(iban, 2);
    for (const id of later) {
      const skipped = await harness.waitForEvent(tenant, id, 'skipped', { timeoutMs: 20_000 });
      expect(skipped.webhook_deliveries).toEqual([]);
    }
    expect(target.requests).toHaveLength(1);
    expect(await noticeKinds(tenant)).toEqual(['endpoint_disabled']);

    const response = await fetch(`${harness.runtime.baseUrl}/accounts/${iban}/enable`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ recover_since: '2000-01-01 00:00:00' }),
    });
    const body = (await response.json()) as { queued: string[]; more: boolean };
    expect(response.status).toBe(200);
    expect(body.queued.sort()).toEqual([gone, ...later].sort());
    expect(body.more).toBe(false);
    for (const id of [gone, ...later])
      await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 20_000 });
    expect((await accountHealth(tenant, iban)).state).toBe('healthy');

    // The enabling is announced once, about the same endpoint, saying why it had been disabled; enabling
    // a healthy endpoint again announces nothing.
    const again = await harness.api(tenant, 'POST', `/accounts/${iban}/enable`);
    expect(again.status).toBe(200);
    const [enabled, disabledNotice] = await notices(tenant);
    expect(await noticeKinds(tenant)).toEqual(['endpoint_disabled', 'endpoint_enabled']);
    expect(enabled).toMatchObject({
      type: 'endpoint_enabled',
      account: iban,
      endpoint_id: disabledNotice?.endpoint_id,
      reason: 'receiver answered 410 Gone',
      consecutive_failures: 0,
      last_answer: null,
    });
  }, 90_000);

  it('disables an endpoint that keeps failing for the auto-disable period', async () => {
    const target = await receiver(() => reply.status(500, 'down'));
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant, target.url);
    const ids = await publishMany(iban, 3);
    const disabled = await waitFor(
      async () => {
        const health = await accountHealth(tenant, iban);
        return health.state === 'disabled' && health;
      },
      { timeoutMs: 40_000, intervalMs: 500, what: 'the endpoint to be disabled' },
    );
    expect(disabled.reason).toMatch(/^failing continuously since /);
    for (const id of ids) {
      const view = await harness.waitForEvent(tenant, id, 'skipped', { timeoutMs: 20_000 });
      expectCountsConsistent(view);
    }
    // Circuit open most of the time: a handful of probes, not an attempt per second per event.
    expect(target.requests.length).toBeLessThan(12);
    await expectEveryAttemptRecorded(tenant, ids, target);
  }, 90_000);

  it('lets a slow endpoint hold at most its concurrency, the others deferred without an attempt', async () => {
    const target = await receiver(() => ({ kind: 'respond', status: 200, body: 'ok', delayMs: 800 }));
    const tenant = await harness.createTenant();
    const iban = await harness.createAccount(tenant, target.url);
    const [first = ''] = await publishMany(iban, 1);
    await harness.waitForEvent(tenant, first, 'success', { timeoutMs: 20_000 });
    await waitFor(async () => (await accountHealth(tenant, iban)).state === 'degraded', {
      timeoutMs: 5_000,
      what: 'the slow endpoint to be degraded',
    });
    const ids = await publishMany(iban, 5);
    for (const id of ids) await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    const arrivals = target.requests.slice(1).map((r) => r.at);
    // With one slot, no request starts before the previous answer (0.8 s) came back.
    for (let i = 1; i < arrivals.length; i++) {
      expect((arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0)).toBeGreaterThanOrEqual(750);
    }
    await expectEveryAttemptRecorded(tenant, [first, ...ids], target);
  }, 90_000);
});
