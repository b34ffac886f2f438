/**
 * The default endpoint's subscription end to end (issue 32), through the local runtime with a real
 * receiver: `PUT /accounts/{iban}/endpoints/{its id}` gives the account's endpoint event types and a
 * payload filter; each event is routed once, when first handled: the receiver gets exactly the events
 * the subscription wants, the others are settled `skipped` without an attempt.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testIban } from '../support/delivery-queue-helpers';
import { useOperatorFixture } from '../support/operator-fixture';
import { CREDIT, creditPayload, examplePayload, TRANSFER, transferPayload } from '../support/payloads';
import { type Receiver, startReceiver } from '../support/receiver';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
let receiver: Receiver | undefined;
afterAll(() => receiver?.close());

describe("the default endpoint's subscription", () => {
  it('routes to the receiver exactly the events it wants, and skips the others', {
    timeout: 90_000,
  }, async () => {
    receiver = await startReceiver();
    const org = (await op.admin('POST', '/admin/organizations', { name: 'Subscriptions' })).body as {
      id: string;
      api_key: string;
    };
    const iban = testIban();
    const created = await op.admin('PUT', `/admin/accounts/${iban}`, {
      org: org.id,
      webhook_url: receiver.url,
    });
    expect(created.status, created.text).toBe(200);
    const endpointId = (created.body as { endpoint_id: string }).endpoint_id;
    const subscribed = await op.api.call(`/accounts/${iban}/endpoints/${endpointId}`, {
      key: org.api_key,
      method: 'PUT',
      body: { event_types: [TRANSFER], filter: { status: ['rejected'] } },
    });
    expect(subscribed.status, subscribed.text).toBe(200);

    const publish = async (type: string, payload: Record<string, unknown>) => {
      const id = randomUUID();
      const published = await op.admin('POST', '/events', { account: iban, type, payload, id });
      expect(published.status, published.text).toBe(201);
      return id;
    };
    const wanted = await publish(TRANSFER, {
      ...examplePayload(TRANSFER, 'rejected_closed_account'),
      transfer_id: 't1',
    });
    const otherStatus = await publish(TRANSFER, transferPayload({ transfer_id: 't2' }));
    const otherType = await publish(CREDIT, creditPayload());

    const statusOf = async (id: string) =>
      ((await op.api.call(`/events/${id}`, { key: org.api_key })).body as { webhook_status: string })
        .webhook_status;
    for (const id of [otherStatus, otherType]) {
      expect(
        await waitFor(async () => (await statusOf(id)) === 'skipped', { timeoutMs: 30_000, what: id }),
      ).toBe(true);
    }
    await waitFor(async () => (await statusOf(wanted)) === 'success', { timeoutMs: 30_000, what: wanted });
    expect(receiver.requests.map((request) => (JSON.parse(request.body) as { id: string }).id)).toEqual([
      wanted,
    ]);
    const skipped = (await op.api.call(`/events/${otherStatus}`, { key: org.api_key })).body as {
      webhook_retries: number;
    };
    expect(skipped.webhook_retries).toBe(0);
  });
});
