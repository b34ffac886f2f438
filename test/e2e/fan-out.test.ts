/**
 * The fan-out end to end (issue 32), through the local runtime with real receivers: one account with its
 * default endpoint and three extra ones (added through the API), subscribed to one type, to a payload
 * filter (failing its first calls), and to transfers (answering 410). Each receiver gets exactly the
 * events it subscribed to; the failing one delays no other; the 410 disables that endpoint only; each
 * delivery's attempts are all recorded on it, never a 21st, and the event counts every endpoint's.
 */
import { describe, expect, it } from 'vitest';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { CREDIT, creditPayload, examplePayload, TRANSFER, transferPayload } from '../support/payloads';
import { failTimes, type Receiver, reply } from '../support/receiver';
import { waitFor } from '../support/wait';

let harness: DeliveryHarness;
const receiver = setupDeliveryFile({ label: 'e2e-fan-out', retrySchedule: fastSchedule(1) }, (started) => {
  harness = started;
});

/** A call of the API with the tenant's key and a JSON body. */
async function call(tenant: SeededTenant, method: string, path: string, body?: unknown) {
  const response = await fetch(`${harness.runtime.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

const idsOf = (target: Receiver) =>
  target.requests.map((request) => (JSON.parse(request.body) as { id: string }).id).sort();

describe('an account with several endpoints', () => {
  it('sends each endpoint its events on its own delivery, a failing or gone one holding back no other', {
    timeout: 120_000,
  }, async () => {
    const main = await receiver();
    const credits = await receiver();
    const rejects = await receiver(failTimes(2));
    const gone = await receiver(() => reply.status(410, 'gone'));
    const tenant = await harness.createTenant('Fan-out');
    const iban = await harness.createAccount(tenant);
    const put = await call(tenant, 'PUT', `/accounts/${iban}`, { webhook_url: main.url });
    expect(put.status, put.text).toBe(200);
    const endpointIds: Record<string, string> = {};
    for (const [name, target, subscription] of [
      ['credits', credits, { event_types: [CREDIT] }],
      ['rejects', rejects, { filter: { status: ['rejected'] } }],
      ['gone', gone, { event_types: [TRANSFER] }],
    ] as const) {
      const added = await call(tenant, 'POST', `/accounts/${iban}/endpoints`, {
        url: target.url,
        ...subscription,
      });
      expect(added.status, added.text).toBe(201);
      endpointIds[name] = added.body.endpoint_id as string;
    }

    const publish = async (type: string, payload: Record<string, unknown>) =>
      (await harness.publish({ account: iban, type, payload })).id;
    const credit = await publish(CREDIT, creditPayload());
    const rejected = await publish(TRANSFER, examplePayload(TRANSFER, 'rejected_closed_account'));
    const settled = await publish(TRANSFER, transferPayload());

    // Every event settles: the credit at both its endpoints; each transfer fails at the gone one (its
    // 410), or is skipped there (disabled by then), which leaves the default's success its status.
    const statusOf = async (id: string) => (await harness.getEvent(tenant, id)).webhook_status;
    await waitFor(async () => (await statusOf(credit)) === 'success', { timeoutMs: 60_000, what: credit });
    for (const id of [rejected, settled]) {
      await waitFor(async () => ['failed', 'success'].includes(await statusOf(id)), {
        timeoutMs: 60_000,
        what: id,
      });
    }
    // The default endpoint got every event, each other endpoint exactly what it subscribed to.
    await main.waitForRequests(3);
    expect(idsOf(main)).toEqual([credit, rejected, settled].sort());
    expect(idsOf(credits)).toEqual([credit]);
    await waitFor(async () => rejects.requests.length >= 3, {
      timeoutMs: 30_000,
      what: 'the retried endpoint',
    });
    expect(idsOf(rejects)).toEqual([rejected, rejected, rejected]);
    // The 410 disabled the gone endpoint only.
    const listed = await call(tenant, 'GET', `/accounts/${iban}/endpoints`);
    const health = Object.fromEntries(
      (listed.body as unknown as { endpoint_id: string; webhook_health: { state: string } }[]).map(
        (endpoint) => [endpoint.endpoint_id, endpoint.webhook_health.state],
      ),
    );
    expect(health[endpointIds.gone ?? '']).toBe('disabled');
    expect(Object.values(health).filter((state) => state === 'disabled')).toHaveLength(1);
    expect(gone.requests.length).toBeGreaterThanOrEqual(1);

    // Per delivery: every attempt recorded on it, at most 20; the event counts every endpoint's.
    const deliveries = new DynamoEndpointDeliveries(harness.documents, harness.runtime.tableName);
    const received = { [credit]: 0, [rejected]: 0, [settled]: 0 } as Record<string, number>;
    for (const target of [main, credits, rejects, gone]) {
      for (const id of idsOf(target)) received[id] = (received[id] ?? 0) + 1;
    }
    for (const id of [credit, rejected, settled]) {
      const event = await harness.events.getEvent(id, { consistent: true });
      if (!event) throw new Error(`no event ${id}`);
      const routes = event.routes ?? [];
      let attempts = 0;
      for (const endpointId of routes) {
        const delivery = await deliveries.readDelivery({
          ...event,
          sequence: event.sequence ?? 0,
          endpointId,
        });
        expect(delivery.deliveries).toHaveLength(delivery.retries);
        expect(delivery.retries).toBeLessThanOrEqual(20);
        attempts += delivery.retries;
      }
      expect(attempts, id).toBe(received[id]);
      expect((await harness.getEvent(tenant, id)).webhook_retries, id).toBe(attempts);
    }
    const rejectedEvent = await harness.events.getEvent(rejected, { consistent: true });
    if (!rejectedEvent) throw new Error('no rejected event');
    const atRejects = await deliveries.readDelivery({
      ...rejectedEvent,
      sequence: rejectedEvent.sequence ?? 0,
      endpointId: endpointIds.rejects ?? '',
    });
    expect(atRejects).toMatchObject({ status: 'success', retries: 3 });
  });
});
