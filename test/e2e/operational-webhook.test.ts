/**
 * The operational webhook end to end (issue 33), through the local runtime with real loopback receivers:
 * an endpoint failing then recovering sends exactly `endpoint_failing` then `endpoint_recovered` to the
 * organization's operational webhook, signed like every webhook (checked with the Standard Webhooks
 * library a receiver uses); a `410` sends `endpoint_disabled` once; an operational webhook that fails or
 * hangs does not hold a customer's webhooks (a behavioural check, as the held-invocation test makes: the
 * customer's webhook arrives while the operational request is still open); and nothing is ever sent about
 * the operational webhook itself.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { AccountView } from '#http/accounts/account-view';
import type { OperationalEventView } from '#http/organizations/operational-event-view';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { type ApiClient, connectApi } from '../support/e2e-http';
import { TRANSFER, transferPayload } from '../support/payloads';
import { failTimes, type Receiver, type RecordedRequest, reply } from '../support/receiver';
import { sleep, waitFor } from '../support/wait';

/** Long enough that a hanging operational request is certainly still open while the test looks. */
const TIMEOUT_MS = 15_000;
/** Open after 3 failures for 2 s (4 s at most); no auto-disable within a test. */
const POLICY = { failureThreshold: 3, openBaseSeconds: 2, openMaxSeconds: 4, autoDisableAfterSeconds: 3600 };

let harness: DeliveryHarness;
let api: ApiClient;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-ops-webhook',
    retrySchedule: fastSchedule(1),
    env: { DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS), ENDPOINT_HEALTH: JSON.stringify(POLICY) },
  },
  (started) => {
    harness = started;
  },
);

/** A tenant whose operational webhook is `target` (set through `PUT /operational-webhook`). */
async function tenantWithOps(target: Receiver): Promise<SeededTenant> {
  api ??= await connectApi(harness.runtime.baseUrl);
  const tenant = await harness.createTenant();
  const set = await api.call('/operational-webhook', {
    method: 'PUT',
    key: tenant.apiKey,
    body: { url: target.url },
  });
  expect(set.status).toBe(200);
  return tenant;
}

async function publishMany(iban: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payload = transferPayload({ transfer_id: `tr_${i}` });
    ids.push((await harness.publish({ account: iban, type: TRANSFER, payload })).id);
  }
  return ids;
}

function standardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const one = (name: string) => String(headers[name] ?? '');
  return {
    'webhook-id': one('webhook-id'),
    'webhook-timestamp': one('webhook-timestamp'),
    'webhook-signature': one('webhook-signature'),
  };
}

/** A notice's webhook as its receiver reads it, its signatures verified with the organization's token. */
interface NoticeBody {
  readonly id: string;
  readonly type: string;
  readonly payload: { readonly endpoint_id: string; readonly account: string };
}

function verified(tenant: SeededTenant, request: RecordedRequest): NoticeBody {
  return new Webhook(tenant.webhookToken).verify(
    request.body,
    standardHeaders(request.headers),
  ) as NoticeBody;
}

/** The organization's notices, as `GET /operational-events` lists them (newest first). */
async function notices(tenant: SeededTenant): Promise<OperationalEventView[]> {
  const answer = await harness.api<OperationalEventView[]>(tenant, 'GET', '/operational-events?per_page=20');
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('operational webhook', () => {
  it('receives exactly failing then recovered for an endpoint that fails then recovers, signed', async () => {
    const ops = await receiver();
    const target = await receiver(failTimes(4, reply.status(503, 'maintenance')));
    const tenant = await tenantWithOps(ops);
    const iban = await harness.createAccount(tenant, target.url);
    for (const id of await publishMany(iban, 4)) {
      await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    }
    await ops.waitForRequests(2, { timeoutMs: 30_000 });
    // A later success announces nothing more.
    for (const id of await publishMany(iban, 2)) await harness.waitForEvent(tenant, id, 'success');
    await sleep(2_000);
    const bodies = ops.requests.map((request) => verified(tenant, request));
    expect(bodies.map((body) => body.type)).toEqual(['endpoint_failing', 'endpoint_recovered']);
    expect(bodies.every((body) => body.payload.account === iban)).toBe(true);
    expect(ops.requests.map((request) => request.headers['webhook-id'])).toEqual(bodies.map((b) => b.id));
    // Each settled as delivered, once.
    await waitFor(
      async () => (await notices(tenant)).every((notice) => notice.webhook_status === 'success'),
      { timeoutMs: 10_000, what: 'the notices to show their delivery' },
    );
    expect((await notices(tenant)).map((notice) => notice.webhook_retries)).toEqual([1, 1]);
    // One notice with its attempt, as the served OpenAPI document says (the client checks every answer).
    const [failing] = bodies;
    const detail = await api.call(`/operational-events/${failing?.id}`, { key: tenant.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: failing?.id, webhook_status: 'success', webhook_retries: 1 });
    const attempts = (detail.body as { webhook_deliveries: { response_status: number; url: string }[] })
      .webhook_deliveries;
    expect(attempts.map((attempt) => [attempt.response_status, attempt.url])).toEqual([[200, ops.url]]);
    const other = await harness.createTenant();
    expect((await api.call(`/operational-events/${failing?.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await api.call('/operational-events/ntc_nope', { key: tenant.apiKey })).status).toBe(400);
  }, 120_000);

  it('receives endpoint_disabled once for a 410', async () => {
    const ops = await receiver();
    const target = await receiver(() => reply.status(410, 'gone'));
    const tenant = await tenantWithOps(ops);
    const iban = await harness.createAccount(tenant, target.url);
    const [gone] = await publishMany(iban, 1);
    await harness.waitForEvent(tenant, gone ?? '', 'failed');
    await ops.waitForRequests(1, { timeoutMs: 30_000 });
    // The events after it settle skipped, unsent, and announce nothing more.
    for (const id of await publishMany(iban, 2)) await harness.waitForEvent(tenant, id, 'skipped');
    await sleep(2_000);
    expect(ops.requests.map((request) => verified(tenant, request).type)).toEqual(['endpoint_disabled']);
  }, 120_000);

  it('lets a customer’s webhooks through while the operational webhook hangs, then fails', async () => {
    const ops = await receiver(() => reply.hang());
    const failing = await receiver(failTimes(4, reply.status(503, 'maintenance')));
    const customer = await receiver();
    const tenant = await tenantWithOps(ops);
    const failingIban = await harness.createAccount(tenant, failing.url);
    const customerIban = await harness.createAccount(tenant, customer.url);
    // A run announced failing: its notice's request hangs at the operational webhook.
    for (const id of await publishMany(failingIban, 4)) {
      await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    }
    await ops.waitForRequests(1, { timeoutMs: 30_000 });
    const hangingSince = ops.requests[0]?.at ?? 0;
    // While it hangs, the customer's webhooks arrive, each at its first attempt.
    const sent = await Promise.all(
      ['tr_c1', 'tr_c2', 'tr_c3'].map(
        async (transfer_id) =>
          (
            await harness.publish({
              account: customerIban,
              type: TRANSFER,
              payload: transferPayload({ transfer_id }),
            })
          ).id,
      ),
    );
    await customer.waitForRequests(3, { timeoutMs: TIMEOUT_MS });
    expect(Math.max(...customer.requests.map((request) => request.at))).toBeLessThan(
      hangingSince + TIMEOUT_MS,
    );
    // The hanging request is still open: its attempt is not recorded yet.
    const pending = (await notices(tenant)).find((notice) => notice.type === 'endpoint_failing');
    expect(pending?.webhook_retries).toBe(0);
    for (const id of sent) await harness.waitForEvent(tenant, id, 'success', { attempts: 1 });

    // Then it answers 500: still nothing held, and the customer's endpoint stays healthy.
    ops.setScript(() => reply.status(500, 'ops down'));
    await waitFor(async () => ops.requests.length >= 4, { timeoutMs: 60_000, what: 'the notices retried' });
    const more = await publishMany(customerIban, 3);
    for (const id of more) await harness.waitForEvent(tenant, id, 'success', { attempts: 1 });
    const account = await harness.api<AccountView>(tenant, 'GET', `/accounts/${customerIban}`);
    expect(account.body.webhook_health.state).toBe('healthy');
  }, 150_000);

  it('never sends anything about the operational webhook itself', async () => {
    // Failing far past the point an endpoint is announced failing, and answering 410.
    const ops = await receiver(failTimes(8, reply.status(500, 'ops down'), reply.status(410, 'gone')));
    const failing = await receiver(failTimes(4, reply.status(503, 'maintenance')));
    const tenant = await tenantWithOps(ops);
    const iban = await harness.createAccount(tenant, failing.url);
    for (const id of await publishMany(iban, 4)) {
      await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    }
    await waitFor(async () => ops.requests.length >= 9, { timeoutMs: 90_000, what: 'the operational 410' });
    await sleep(3_000);
    // Only the customer endpoint's run: its failing and recovered notices, nothing about the operational one.
    const listed = await notices(tenant);
    expect(listed.map((notice) => notice.type).sort()).toEqual(['endpoint_failing', 'endpoint_recovered']);
    expect(listed.every((notice) => notice.endpoint_id.startsWith('ep_'))).toBe(true);
    const sentAbout = new Set(ops.requests.map((request) => verified(tenant, request).payload.endpoint_id));
    expect([...sentAbout].every((id) => id.startsWith('ep_'))).toBe(true);
  }, 150_000);
});
