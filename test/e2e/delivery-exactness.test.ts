/**
 * Delivery exactness end to end (issue 16), through the local runtime with real receivers: an event
 * never reaches another organization (an IBAN that still holds its events cannot be reassigned, and
 * old data that reassigned it anyway sends nothing), a changed webhook URL applies to the very next
 * attempt, and a pending event's next attempt can be brought forward without an extra attempt.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { CIRCUIT_NEVER_OPENS, fastSchedule } from '../support/delivery-queue-helpers';
import { type ApiClient, connectApi, expectProblem } from '../support/e2e-http';
import { TRANSFER, transferPayload } from '../support/payloads';
import { reply } from '../support/receiver';
import { sleep } from '../support/wait';

const TEST_TIMEOUT_MS = 90_000;
/** A first retry after 2 s, every later one after 60 s: long enough to see it brought forward. */
const SCHEDULE = fastSchedule(2, 60);
/** Longer than a poll of the queue link and a consumer batch, with margin for a busy machine. */
const QUIET_MS = 4_000;

let harness: DeliveryHarness;
let api: ApiClient;
const receiver = setupDeliveryFile(
  // Every receiver here answers at once; failures must not open the circuit, or retries would wait for it.
  { label: 'e2e-exactness', retrySchedule: SCHEDULE, env: { ENDPOINT_HEALTH: CIRCUIT_NEVER_OPENS } },
  (started) => {
    harness = started;
  },
);

async function client(): Promise<ApiClient> {
  api ??= await connectApi(harness.runtime.baseUrl);
  return api;
}

/** A SigV4-signed operator call. */
async function admin(method: string, path: string, body?: unknown) {
  return (await client()).call(path, { method, sign: harness.runtime.credentials, body });
}

/**
 * Organizations A (named `nameA`) and B with a receiver each, A's always failing, and an event of A's
 * account that failed its first attempt and waits for its retry.
 */
async function aEventPendingWithB(nameA: string) {
  const orgA = await harness.createTenant(nameA);
  const orgB = await harness.createTenant('Beta');
  const hookA = await receiver(() => reply.status(500, 'A is down'));
  const hookB = await receiver(() => reply.status(200, 'B took it'));
  const iban = await harness.createAccount(orgA, hookA.url);
  return { orgA, orgB, hookA, hookB, iban, id: await failingEvent(orgA, iban) };
}

/** An event of `tenant`'s account that failed its first attempt and waits for its retry. */
async function failingEvent(tenant: SeededTenant, iban: string) {
  const { id } = await harness.publish({
    account: iban,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: 'tr_n1' }),
  });
  await harness.waitForEvent(tenant, id, 'pending', { attempts: 1 });
  return id;
}

describe.concurrent('an event stays with its organization', { timeout: TEST_TIMEOUT_MS }, () => {
  it('refuses to reassign an IBAN that still holds another organization’s events, until they are erased', async () => {
    const { orgA, orgB, hookA, hookB, iban, id } = await aEventPendingWithB('Alpha Payments secret name');

    expect((await admin('DELETE', `/admin/accounts/${iban}`)).status).toBe(204);
    const refused = expectProblem(
      await admin('PUT', `/admin/accounts/${iban}`, { org: orgB.orgId, webhook_url: hookB.url }),
      409,
    );
    expect(refused.detail).toContain(`herald account delete --iban ${iban} --erase`);
    expect(refused.detail).not.toContain(orgA.orgId);
    expect(refused.detail).not.toContain('Alpha');
    // The deleted account is gone for every reader, and the pending retry goes nowhere.
    expectProblem(await (await client()).call(`/accounts/${iban}`, { key: orgA.apiKey }), 404);
    const skipped = await harness.waitForEvent(orgA, id, 'skipped');
    expectCountsConsistent(skipped);
    expect(skipped.webhook_retries).toBe(1);

    const erased = await admin('DELETE', `/admin/accounts/${iban}?erase=true`);
    expect(erased.body).toMatchObject({ deleted: false, erased_events: 1, more: false });
    const assigned = await admin('PUT', `/admin/accounts/${iban}`, {
      org: orgB.orgId,
      webhook_url: hookB.url,
    });
    expect(assigned.status, assigned.text).toBe(200);
    const ofB = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_b1' }),
    });
    await harness.waitForEvent(orgB, ofB.id, 'success');
    expect(hookB.requests.map((r) => r.headers['webhook-id'])).toEqual([ofB.id]);
    expect(hookA.requests.every((r) => r.headers['webhook-id'] === id)).toBe(true);
  });

  it('sends nothing to the new owner of an IBAN reassigned by old data; the event settles skipped', async () => {
    const { orgA, orgB, hookA, hookB, iban, id } = await aEventPendingWithB('Alpha');
    // Test-only: the IBAN given to B past every rule, as a deployment before tombstones could have.
    await harness.documents.send(
      new PutCommand({
        TableName: harness.runtime.tableName,
        Item: {
          pk: `ACCOUNT#${iban}`,
          sk: 'ACCOUNT',
          iban,
          org_id: orgB.orgId,
          webhook_url: hookB.url,
          gsi1pk: `ORG#${orgB.orgId}#ACCOUNTS`,
          gsi1sk: iban,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        },
      }),
    );
    const skipped = await harness.waitForEvent(orgA, id, 'skipped');
    expectCountsConsistent(skipped);
    expect(skipped.webhook_deliveries.map((d) => d.url)).toEqual([hookA.url]);
    // A redelivery organization A asks for is refused the same way.
    expect((await harness.api(orgA, 'POST', `/events/${id}/redeliver`)).status).toBe(202);
    await sleep(QUIET_MS);
    const after = await harness.getEvent(orgA, id);
    expect(after).toMatchObject({ webhook_status: 'skipped', webhook_retries: 1 });
    expect(hookB.requests).toHaveLength(0);
    expect(hookA.requests).toHaveLength(1);
  });
});

describe.concurrent('changes apply to the very next attempt', { timeout: TEST_TIMEOUT_MS }, () => {
  it('sends a new event published right after a URL change, and an older event’s retry, to the new URL', async () => {
    const tenant = await harness.createTenant();
    const before = await receiver(() => reply.status(500, 'old endpoint'));
    const after = await receiver(() => reply.status(200, 'new endpoint'));
    const iban = await harness.createAccount(tenant, before.url);
    const older = await failingEvent(tenant, iban);

    const changed = await (await client()).call(`/accounts/${iban}`, {
      method: 'PUT',
      key: tenant.apiKey,
      body: { webhook_url: after.url },
    });
    expect(changed.status, changed.text).toBe(200);
    const fresh = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_n2' }),
    });

    const delivered = await harness.waitForEvent(tenant, fresh.id, 'success');
    expect(delivered.webhook_deliveries.map((d) => d.url)).toEqual([after.url]);
    const retried = await harness.waitForEvent(tenant, older, 'success');
    expectCountsConsistent(retried);
    // Each attempt records where it went: the first to the old URL, the retry to the new one.
    expect(retried.webhook_deliveries.map((d) => d.url)).toEqual([before.url, after.url]);
    expect(before.requests).toHaveLength(1);
    expect(after.requests.map((r) => r.headers['webhook-id']).sort()).toEqual([older, fresh.id].sort());
  });
});

describe.concurrent('a pending event', { timeout: TEST_TIMEOUT_MS }, () => {
  it('shows when its next attempt is due, and makes it now on request: once, however often asked', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(() => reply.status(503, 'maintenance'));
    const iban = await harness.createAccount(tenant, hook.url);
    const { id } = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload(),
    });
    const waiting = await harness.waitForEvent(tenant, id, 'pending', { attempts: 2 });
    // The second failure scheduled the third attempt 60 s later; the API says when.
    const due = Date.parse(`${waiting.next_attempt_at?.replace(' ', 'T')}Z`);
    expect(due - Date.now()).toBeGreaterThan(40_000);
    expect(due - Date.now()).toBeLessThanOrEqual(60_000);

    hook.setScript(() => reply.status(200, 'back'));
    const asked = await Promise.all([
      harness.api(tenant, 'POST', `/events/${id}/redeliver`),
      harness.api(tenant, 'POST', `/events/${id}/redeliver`),
    ]);
    expect(asked.map((a) => a.status)).toContain(202);
    for (const answer of asked) expect([202, 409]).toContain(answer.status);
    const done = await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 20_000 });
    expect(Date.now()).toBeLessThan(due);
    await sleep(QUIET_MS);
    const settled = await harness.getEvent(tenant, id);
    expectCountsConsistent(settled);
    expect(settled.webhook_deliveries.map((d) => d.response_status)).toEqual([503, 503, 200]);
    expect(settled).toMatchObject({ webhook_retries: 3, next_attempt_at: null });
    expect(hook.requests).toHaveLength(3);
    expect(done.webhook_retries).toBe(3);
    // Delivered now: a redelivery starts a new cycle, whose one attempt is sent and counted.
    expect((await harness.api(tenant, 'POST', `/events/${id}/redeliver`)).status).toBe(202);
    expectCountsConsistent(await harness.waitForEvent(tenant, id, 'success', { attempts: 4 }));
  });
});
