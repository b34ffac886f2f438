/**
 * An account's webhook endpoints through the local runtime (issue 32): an organization's `manage` key
 * adds, lists, reads, changes and removes them (a `read` key lists and reads them, with URLs masked, and
 * cannot write); a change keeps what it does not name and `null` removes; the 11th endpoint, an unknown
 * event type and a bad filter are refused naming the limit, the type's place and the filter's path; the
 * operator's twins reach the same endpoints. Every answer is checked against the served OpenAPI document.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import { testIban } from '../support/delivery-queue-helpers';
import { useOperatorFixture } from '../support/operator-fixture';
import { type Receiver, startReceiver } from '../support/receiver';

const op = useOperatorFixture();
let receiver: Receiver | undefined;
afterAll(() => receiver?.close());

interface EndpointBody {
  endpoint_id: string;
  default: boolean;
  url: string | null;
  event_types: string[] | null;
  filter: unknown;
  description: string | null;
  delivery_order: string;
  enabled: boolean;
}

interface Problem {
  status: number;
  detail: string;
  invalid_params?: { name: string; reason: string }[];
}

describe("an account's endpoints", () => {
  it('are added, listed, read, changed and removed; the limit, catalog and filter are checked', {
    timeout: 90_000,
  }, async () => {
    const org = (await op.admin('POST', '/admin/organizations', { name: 'Endpoints' })).body as {
      id: string;
      api_key: string;
    };
    const reader = (
      await op.admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: 'dashboard', scope: 'read' })
    ).body as { api_key: string };
    const iban = testIban();
    const created = await op.admin('PUT', `/admin/accounts/${iban}`, {
      org: org.id,
      webhook_url: 'http://127.0.0.1:9/orders',
    });
    expect(created.status, created.text).toBe(200);
    const defaultId = (created.body as { endpoint_id: string }).endpoint_id;
    const key = org.api_key;
    const call = (path: string, method = 'GET', body?: unknown, as = key) =>
      op.api.call(`/accounts/${iban}/endpoints${path}`, { key: as, method, body });

    const added = await call('', 'POST', {
      url: 'http://127.0.0.1:9/accounting?token=s3cret',
      event_types: ['direct_debit_status_change'],
      filter: { status: ['failed'] },
      description: 'Accounting',
    });
    expect(added.status, added.text).toBe(201);
    const accounting = added.body as EndpointBody;
    expect(accounting).toMatchObject({
      default: false,
      url: 'http://127.0.0.1:9/accounting?token=s3cret',
      event_types: ['direct_debit_status_change'],
      filter: { status: ['failed'] },
      description: 'Accounting',
      delivery_order: 'concurrent',
      enabled: true,
    });

    const listed = await call('');
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as EndpointBody[]).map((e) => [e.endpoint_id, e.default])).toEqual([
      [defaultId, true],
      [accounting.endpoint_id, false],
    ]);
    // A read key reads them, the URL's query masked, and cannot write.
    const read = await call(`/${accounting.endpoint_id}`, 'GET', undefined, reader.api_key);
    expect(read.status, read.text).toBe(200);
    expect((read.body as EndpointBody).url).toBe('http://127.0.0.1:9/accounting?token=***');
    expect((await call('', 'POST', { url: 'http://127.0.0.1:9/x' }, reader.api_key)).status).toBe(403);

    // Absent keeps, null removes.
    const renamed = await call(`/${accounting.endpoint_id}`, 'PUT', { description: 'Books' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      description: 'Books',
      event_types: ['direct_debit_status_change'],
      filter: { status: ['failed'] },
    });
    const cleared = await call(`/${accounting.endpoint_id}`, 'PUT', { filter: null, enabled: false });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      description: 'Books',
      event_types: ['direct_debit_status_change'],
      filter: null,
      enabled: false,
    });

    // Refusals name what is wrong, and change nothing.
    const unknownType = await call('', 'POST', {
      url: 'http://127.0.0.1:9/x',
      event_types: ['credit_received', 'no_such_type'],
    });
    expect(unknownType.status, unknownType.text).toBe(400);
    expect((unknownType.body as Problem).invalid_params).toEqual([
      { name: 'event_types/1', reason: 'no_such_type is not an event type of the catalog' },
    ]);
    const badFilter = await call(`/${accounting.endpoint_id}`, 'PUT', {
      filter: { amount: [{ numeric: ['>>', 5] }] },
    });
    expect(badFilter.status, badFilter.text).toBe(400);
    expect((badFilter.body as Problem).invalid_params?.[0]?.name).toMatch(/^filter\/amount\/0/);
    expect(((await call(`/${accounting.endpoint_id}`)).body as EndpointBody).filter).toBeNull();

    // Up to the limit, the default endpoint included; the next is refused naming it.
    for (let i = 2; i < MAX_ENDPOINTS_PER_ACCOUNT; i += 1) {
      const more = await call('', 'POST', { url: `http://127.0.0.1:9/r${i}` });
      expect(more.status, more.text).toBe(201);
    }
    const eleventh = await call('', 'POST', { url: 'http://127.0.0.1:9/r11' });
    expect(eleventh.status, eleventh.text).toBe(409);
    expect((eleventh.body as Problem).detail).toContain(`${MAX_ENDPOINTS_PER_ACCOUNT} endpoints`);

    // The operator's twins reach the same endpoints.
    const operatorList = await op.admin('GET', `/admin/accounts/${iban}/endpoints`);
    expect(operatorList.status, operatorList.text).toBe(200);
    expect(operatorList.body as EndpointBody[]).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT);
    const removed = await op.admin('DELETE', `/admin/accounts/${iban}/endpoints/${accounting.endpoint_id}`);
    expect(removed.status, removed.text).toBe(204);
    expect((await call(`/${accounting.endpoint_id}`)).status).toBe(404);
    // The default endpoint stays with its account.
    const keepDefault = await call(`/${defaultId}`, 'DELETE');
    expect(keepDefault.status, keepDefault.text).toBe(409);
    expect((await call('')).body as EndpointBody[]).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT - 1);
  });

  it('take a test event: endpoint_id names the endpoint it goes to', { timeout: 60_000 }, async () => {
    receiver = await startReceiver();
    const org = (await op.admin('POST', '/admin/organizations', { name: 'Endpoint tests' })).body as {
      id: string;
      api_key: string;
    };
    const iban = testIban();
    await op.admin('PUT', `/admin/accounts/${iban}`, {
      org: org.id,
      webhook_url: 'http://127.0.0.1:9/orders',
    });
    const added = await op.api.call(`/accounts/${iban}/endpoints`, {
      key: org.api_key,
      method: 'POST',
      body: { url: receiver.url },
    });
    expect(added.status, added.text).toBe(201);
    const id = (added.body as EndpointBody).endpoint_id;
    const sent = await op.api.call(`/accounts/${iban}/test-events`, {
      key: org.api_key,
      method: 'POST',
      body: { type: 'credit_received', endpoint_id: id },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ delivery: { response_status: 200 } });
    const [request] = await receiver.waitForRequests(1);
    expect(request?.headers['herald-test']).toBe('true');
    const unknown = await op.api.call(`/accounts/${iban}/test-events`, {
      key: org.api_key,
      method: 'POST',
      body: { type: 'credit_received', endpoint_id: 'ep_0000000000ff' },
    });
    expect(unknown.status, unknown.text).toBe(404);
  });
});
