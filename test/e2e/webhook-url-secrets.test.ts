/**
 * A secret in a webhook URL's query string (issue 28) end to end: the organization's `manage` key and
 * the operator see the URL whole (they set it); a `read` key sees its query's values as `***` in
 * `GET /accounts` and `GET /accounts/{iban}`; the attempt is sent to the URL as saved and recorded with
 * the values masked, so `GET /events/{id}` shows no token to any key.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testIban } from '../support/delivery-queue-helpers';
import { TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
const received: string[] = [];
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(503).end('later'));
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => receiver?.close());

describe("a webhook URL's query", () => {
  it('is shown whole to manage keys and operators, masked to read keys and in every attempt', {
    timeout: 90_000,
  }, async () => {
    const org = (await op.admin('POST', '/admin/organizations', { name: 'URL secrets' })).body as {
      id: string;
      api_key: string;
    };
    const reader = (
      await op.admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: 'dashboard', scope: 'read' })
    ).body as { api_key: string };
    const iban = testIban();
    const url = `${base}/hook?token=s3cret-value&tenant=acme`;
    const masked = `${base}/hook?token=***&tenant=***`;
    const created = await op.admin('PUT', `/admin/accounts/${iban}`, { org: org.id, webhook_url: url });
    expect(created.status, created.text).toBe(200);
    expect((created.body as { webhook_url: string }).webhook_url).toBe(url);

    const urlOf = async (key: string) =>
      ((await op.api.call(`/accounts/${iban}`, { key })).body as { webhook_url: string }).webhook_url;
    const listed = async (key: string) =>
      ((await op.api.call('/accounts', { key })).body as { webhook_url: string }[]).map((a) => a.webhook_url);
    expect(await urlOf(org.api_key)).toBe(url);
    expect(await listed(org.api_key)).toEqual([url]);
    expect(await urlOf(reader.api_key)).toBe(masked);
    expect(await listed(reader.api_key)).toEqual([masked]);
    const changed = await op.api.call(`/accounts/${iban}`, {
      method: 'PUT',
      key: org.api_key,
      body: { webhook_url: url },
    });
    expect((changed.body as { webhook_url: string }).webhook_url).toBe(url);

    const id = randomUUID();
    const published = await op.admin('POST', '/events', {
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: id }),
      id,
    });
    expect(published.status, published.text).toBe(201);
    const attempt = async (key: string) => {
      const view = await op.api.call(`/events/${id}`, { key });
      expect(view.text).not.toContain('s3cret');
      return (view.body as { webhook_deliveries: { url: string; response_status: number }[] })
        .webhook_deliveries[0];
    };
    const first = await waitFor(() => attempt(org.api_key), { timeoutMs: 30_000, what: 'the first attempt' });
    expect(first).toMatchObject({ url: masked, response_status: 503 });
    expect(await attempt(reader.api_key)).toMatchObject({ url: masked });
    // The receiver got the URL as saved.
    expect(received).toContain('/hook?token=s3cret-value&tenant=acme');
  });
});
