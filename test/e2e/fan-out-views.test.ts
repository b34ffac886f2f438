/**
 * The records of a fanned-out event end to end (issue 32), through the local runtime with three real
 * receivers, every answer checked against the served OpenAPI document: the single event view shows one
 * part per routed endpoint and every attempt naming its endpoint; `GET /events?account=…&endpoint_id=…`
 * lists an endpoint's events; a redelivery naming one endpoint sends to that endpoint alone.
 */
import { describe, expect, it } from 'vitest';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { type ApiClient, connectApi } from '../support/e2e-http';
import { CREDIT, creditPayload } from '../support/payloads';
import { waitFor } from '../support/wait';

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  { label: 'e2e-fan-out-views', retrySchedule: fastSchedule(1) },
  (started) => {
    harness = started;
  },
);

interface EndpointPart {
  endpoint_id: string;
  webhook_status: string;
  webhook_retries: number;
  next_attempt_at: string | null;
}
interface EventAnswer {
  id: string;
  webhook_status: string;
  webhook_retries: number;
  endpoints: EndpointPart[];
  webhook_deliveries: { endpoint_id: string; delivery_at: string; url: string }[];
}

describe('the records of a fanned-out event', () => {
  it('shows each endpoint, lists an endpoint’s events and redelivers at one endpoint alone', {
    timeout: 120_000,
  }, async () => {
    const api: ApiClient = await connectApi(harness.runtime.baseUrl);
    const main = await receiver();
    const books = await receiver();
    const store = await receiver();
    const tenant: SeededTenant = await harness.createTenant('Fan-out views');
    const iban = await harness.createAccount(tenant, main.url);
    const as = { key: tenant.apiKey };
    const ids: string[] = [];
    for (const target of [books, store]) {
      const added = await api.call(`/accounts/${iban}/endpoints`, {
        ...as,
        method: 'POST',
        body: { url: target.url },
      });
      expect(added.status, added.text).toBe(201);
      ids.push((added.body as { endpoint_id: string }).endpoint_id);
    }
    const [booksId = '', storeId = ''] = ids;
    const account = await api.call(`/accounts/${iban}`, as);
    const defaultId = (account.body as { endpoint_id: string }).endpoint_id;

    const { id } = await harness.publish({ account: iban, type: CREDIT, payload: creditPayload() });
    const view = async () => {
      const answer = await api.call(`/events/${id}`, as);
      expect(answer.status, answer.text).toBe(200);
      return answer.body as EventAnswer;
    };
    await waitFor(async () => (await view()).webhook_status === 'success', { timeoutMs: 60_000, what: id });

    const settled = await view();
    expect(
      settled.endpoints.map((part) => [part.endpoint_id, part.webhook_status, part.webhook_retries]),
    ).toEqual([
      [defaultId, 'success', 1],
      [booksId, 'success', 1],
      [storeId, 'success', 1],
    ]);
    expect(settled.webhook_retries).toBe(3);
    expect(settled.webhook_deliveries.map((attempt) => attempt.endpoint_id).sort()).toEqual(
      [defaultId, booksId, storeId].sort(),
    );
    const at = (endpointId: string) =>
      settled.webhook_deliveries.find((a) => a.endpoint_id === endpointId)?.url;
    expect([at(defaultId), at(booksId), at(storeId)]).toEqual([main.url, books.url, store.url]);

    // The events of one endpoint: an extra one's from its deliveries, the default one's from the account.
    const listed = async (endpointId: string) => {
      const answer = await api.call(`/events?account=${iban}&endpoint_id=${endpointId}`, as);
      expect(answer.status, answer.text).toBe(200);
      return (answer.body as { id: string }[]).map((event) => event.id);
    };
    expect(await listed(booksId)).toEqual([id]);
    expect(await listed(defaultId)).toEqual([id]);
    const unknown = await api.call(`/events?account=${iban}&endpoint_id=ep_0000000000ff`, as);
    expect(unknown.status).toBe(404);
    const other = await harness.createTenant('Another organization');
    expect(
      (await api.call(`/events?account=${iban}&endpoint_id=${booksId}`, { key: other.apiKey })).status,
    ).toBe(404);

    // Redelivered at the books endpoint alone: only its receiver is called again.
    const redelivered = await api.call(`/events/${id}/redeliver`, {
      ...as,
      method: 'POST',
      body: { endpoint_id: booksId },
    });
    expect(redelivered.status, redelivered.text).toBe(202);
    await books.waitForRequests(2);
    await waitFor(async () => (await view()).webhook_status === 'success', {
      timeoutMs: 30_000,
      what: 'again',
    });
    const again = await view();
    expect(again.endpoints.map((part) => part.webhook_retries)).toEqual([1, 2, 1]);
    expect(again.webhook_retries).toBe(4);
    expect(again.webhook_deliveries).toHaveLength(4);
    expect([main.requests.length, books.requests.length, store.requests.length]).toEqual([1, 2, 1]);
    // An endpoint the event was not routed to.
    const nowhere = await api.call(`/events/${id}/redeliver`, {
      ...as,
      method: 'POST',
      body: { endpoint_id: 'ep_0000000000ff' },
    });
    expect(nowhere.status).toBe(404);
  });
});
