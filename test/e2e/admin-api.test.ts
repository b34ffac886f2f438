/**
 * The operator routes (`/admin/…`, AWS IAM) and the organization key's scopes end to end, through the
 * local API Gateway: organizations, API keys (issue, list, revoke, expiry, scope), accounts, and the
 * one accepted spelling of the Bearer header. Every answer is checked against the served OpenAPI document.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { generateApiKey, hashApiKey } from '#domain/signing/secrets';
import type { SeededTenant } from '#local/tenant-seed';
import { testIban } from '../support/delivery-queue-helpers';
import { expectProblem } from '../support/e2e-http';
import { DE, NL, TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();

/** An IBAN nobody registered in the fixture. */
const ES = 'ES9121000418450200051332';

interface KeyView {
  id: string;
  name: string;
  scope: string;
  created_at: string;
  api_key?: string;
}

describe('organizations', () => {
  it('creates one with a working manage key, shows it, and names what is wrong', async () => {
    const created = await op.admin('POST', '/admin/organizations', { name: '  Org C  ' });
    expect(created.status, created.text).toBe(201);
    const org = created.body as { id: string; name: string; webhook_token: string; api_key: string };
    expect(org.name).toBe('Org C');
    expect((await op.api.call('/events', { key: org.api_key })).status).toBe(200);

    const shown = await op.admin('GET', `/admin/organizations/${org.id}`);
    expect(shown.body).toMatchObject({
      id: org.id,
      name: 'Org C',
      webhook_token: org.webhook_token,
      previous: null,
    });
    expectProblem(await op.admin('GET', '/admin/organizations/no-such-org'), 404);
    const bad = expectProblem(await op.admin('POST', '/admin/organizations', { name: '' }), 400);
    expect(bad.invalid_params?.[0]?.name).toBe('name');
    expect(
      expectProblem(await op.admin('POST', '/admin/organizations', { name: 'x', extra: 1 }), 400)
        .invalid_params?.[0]?.name,
    ).toBe('extra');
  });

  it('refuses API keys and unsigned calls on every admin route with 403', async () => {
    const paths = [
      `/admin/organizations/${op.fixture.orgA.orgId}`,
      `/admin/organizations/${op.fixture.orgA.orgId}/api-keys`,
    ];
    for (const path of paths) {
      expectProblem(await op.api.call(path, { key: op.fixture.orgA.apiKey }), 403);
      expectProblem(await op.api.call(path), 403);
    }
  });
});

describe('API keys and scopes', () => {
  it('issues a read key that reads but gets 403 on every manage route', async () => {
    const orgA = op.fixture.orgA;
    const created = await op.admin('POST', `/admin/organizations/${orgA.orgId}/api-keys`, {
      name: 'dashboard',
      scope: 'read',
    });
    expect(created.status, created.text).toBe(201);
    const key = created.body as KeyView & { api_key: string };
    expect(key).toMatchObject({ name: 'dashboard', scope: 'read' });
    expect(key.api_key).toMatch(/^herald_[A-Za-z0-9_-]{43}$/);

    const listed = (await op.admin('GET', `/admin/organizations/${orgA.orgId}/api-keys`)).body as KeyView[];
    expect(listed.map((k) => [k.name, k.scope])).toEqual([
      ['default', 'manage'],
      ['dashboard', 'read'],
    ]);
    expect(listed.some((k) => 'api_key' in k)).toBe(false);

    expect((await op.api.call('/events', { key: key.api_key })).status).toBe(200);
    expect((await op.api.call(`/accounts/${DE}`, { key: key.api_key })).status).toBe(200);
    const manageCalls: [string, string][] = [
      ['POST', `/events/${op.fixture.failedEvent.id}/redeliver`],
      ['POST', '/management/webhooks/reset'],
      ['PUT', `/accounts/${DE}`],
      ['POST', '/webhook-token/rotate'],
      ['GET', '/webhook-token'],
    ];
    for (const [method, path] of manageCalls) {
      const problem = expectProblem(
        await op.api.call(path, {
          method,
          key: key.api_key,
          ...(method === 'PUT' ? { body: { webhook_url: null } } : {}),
        }),
        403,
      );
      expect(problem.type, `${method} ${path}`).toBe('https://herald.dev/problems/forbidden');
    }
    // The manage key may.
    expect((await op.api.call('/webhook-token', { key: orgA.apiKey })).body).toEqual({
      webhook_token: orgA.webhookToken,
      token_id: expect.stringMatching(/^whk_[0-9a-f]{16}$/),
      previous: null,
    });
  });

  it('revokes a key: it answers 401, and cannot be revoked twice', async () => {
    const orgA = op.fixture.orgA;
    const key = (
      await op.admin('POST', `/admin/organizations/${orgA.orgId}/api-keys`, { name: 'temp', scope: 'manage' })
    ).body as KeyView & { api_key: string };
    expect((await op.api.call('/events', { key: key.api_key })).status).toBe(200);
    const revoked = await op.admin('DELETE', `/admin/organizations/${orgA.orgId}/api-keys/${key.id}`);
    expect(revoked.status, revoked.text).toBe(204);
    expectProblem(await op.api.call('/events', { key: key.api_key }), 401);
    expectProblem(await op.admin('DELETE', `/admin/organizations/${orgA.orgId}/api-keys/${key.id}`), 404);
    // Another organization cannot revoke A's keys by id.
    const list = (await op.admin('GET', `/admin/organizations/${orgA.orgId}/api-keys`)).body as KeyView[];
    const other = list[0] as KeyView;
    expectProblem(
      await op.admin('DELETE', `/admin/organizations/${op.fixture.orgB.orgId}/api-keys/${other.id}`),
      404,
    );
    expect((await op.api.call('/events', { key: orgA.apiKey })).status).toBe(200);
  });

  it('refuses an expired key, and checks the fields of a new one', async () => {
    const orgA = op.fixture.orgA;
    // A short-lived key written with `expires_at` in the past, as a session-key issuer could leave it.
    const secret = generateApiKey();
    const client = createDocumentClient();
    await new DynamoApiKeyStore(client, op.fixture.runtime.tableName).createApiKey(hashApiKey(secret), {
      id: '00000000-0000-7000-8000-000000000001',
      orgId: orgA.orgId,
      name: 'session',
      scope: 'read',
      createdAt: new Date().toISOString(),
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    client.destroy();
    expectProblem(await op.api.call('/events', { key: secret }), 401);

    const future = Math.floor(Date.now() / 1000) + 3600;
    const live = await op.admin('POST', `/admin/organizations/${orgA.orgId}/api-keys`, {
      name: 's',
      scope: 'read',
      expires_at: future,
    });
    expect(live.body).toMatchObject({ scope: 'read', expires_at: expect.any(String) });
    expect((await op.api.call('/events', { key: (live.body as { api_key: string }).api_key })).status).toBe(
      200,
    );

    const cases: [unknown, string][] = [
      [{ name: 'x', scope: 'admin' }, 'scope'],
      [{ scope: 'read' }, 'name'],
      [{ name: 'x', scope: 'read', expires_at: 1 }, 'expires_at'],
    ];
    for (const [body, field] of cases) {
      const problem = expectProblem(
        await op.admin('POST', `/admin/organizations/${orgA.orgId}/api-keys`, body),
        400,
      );
      expect(problem.invalid_params?.[0]?.name).toBe(field);
    }
    expectProblem(
      await op.admin('POST', '/admin/organizations/nope/api-keys', { name: 'x', scope: 'read' }),
      404,
    );
  });

  it('accepts only the exact spelling "Bearer <key>", so each key has one cache entry', async () => {
    const key = op.fixture.orgA.apiKey;
    // (fetch trims trailing blanks from header values, so a trailing space cannot be sent from here.)
    for (const authorization of [`bearer ${key}`, `BEARER ${key}`, `Bearer  ${key}`, `Bearer\t${key}`]) {
      expectProblem(await op.api.call('/events', { authorization }), 401);
    }
    expect((await op.api.call('/events', { authorization: `Bearer ${key}` })).status).toBe(200);
  });
});

describe('accounts', () => {
  it('puts, updates and deletes an account as the operator', async () => {
    const orgB = op.fixture.orgB;
    const put = await op.admin('PUT', `/admin/accounts/${ES.toLowerCase()}`, {
      org: orgB.orgId,
      webhook_url: `${op.fixture.receiverUrl}/ok`,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ iban: ES, webhook_url: `${op.fixture.receiverUrl}/ok` });
    expect((await op.api.call(`/accounts/${ES}`, { key: orgB.apiKey })).status).toBe(200);
    const listed = (await op.admin('GET', `/admin/organizations/${orgB.orgId}/accounts`)).body as {
      iban: string;
    }[];
    expect(listed.map((account) => account.iban)).toEqual([ES, NL]);

    expectProblem(await op.admin('PUT', `/admin/accounts/${ES}`, { org: op.fixture.orgA.orgId }), 409);
    expectProblem(await op.admin('PUT', `/admin/accounts/${ES}`, { org: 'no-such-org' }), 404);
    const badIban = expectProblem(
      await op.admin('PUT', '/admin/accounts/ES0021000418450200051332', { org: orgB.orgId }),
      400,
    );
    expect(badIban.invalid_params?.[0]?.name).toBe('iban');
    expect(
      expectProblem(await op.admin('PUT', `/admin/accounts/${ES}`, {}), 400).invalid_params?.[0]?.name,
    ).toBe('org');
    const badUrl = expectProblem(
      await op.admin('PUT', `/admin/accounts/${ES}`, { org: orgB.orgId, webhook_url: 'ftp://x' }),
      400,
    );
    expect(badUrl.invalid_params?.[0]?.name).toBe('webhook_url');

    expect((await op.admin('DELETE', `/admin/accounts/${ES}`)).status).toBe(204);
    expectProblem(await op.admin('DELETE', `/admin/accounts/${ES}`), 404);
    expectProblem(await op.api.call(`/accounts/${ES}`, { key: orgB.apiKey }), 404);
  });

  it("lets a manage key set its own account's webhook URL, and no other organization's", async () => {
    const orgA = op.fixture.orgA;
    const url = `${op.fixture.receiverUrl}/ok`;
    const put = (body: unknown) => op.api.call(`/accounts/${DE}`, { method: 'PUT', key: orgA.apiKey, body });
    const set = await put({ webhook_url: url });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ iban: DE, webhook_url: url });
    // A write that leaves the URL out keeps it (issue 28): one setting changes without restating it.
    for (const body of [{ delivery_order: 'ordered' }, { payload_encryption_key: null }, {}]) {
      const kept = await put(body);
      expect(kept.status, `${JSON.stringify(body)}: ${kept.text}`).toBe(200);
      expect(kept.body).toMatchObject({ iban: DE, webhook_url: url, delivery_order: 'ordered' });
    }
    await expectDelivered(orgA, DE);
    const cleared = await put({ webhook_url: null, delivery_order: 'concurrent' });
    expect(cleared.body).toMatchObject({ iban: DE, webhook_url: null, delivery_order: 'concurrent' });
    expectProblem(
      await op.api.call(`/accounts/${NL}`, { method: 'PUT', key: orgA.apiKey, body: { webhook_url: null } }),
      404,
    );
    const empty = expectProblem(await put({ webhook_url: '' }), 400);
    expect(empty.invalid_params).toEqual([
      {
        name: 'webhook_url',
        reason: 'must be a URL string, or null to stop deliveries (leave it out to keep the stored URL)',
      },
    ]);
  });

  it("keeps what an operator's write leaves out: the URL stays through a change of order", async () => {
    const orgB = op.fixture.orgB;
    const iban = testIban();
    const url = `${op.fixture.receiverUrl}/ok`;
    const put = (body: object) => op.admin('PUT', `/admin/accounts/${iban}`, { org: orgB.orgId, ...body });
    // A new account without a URL is created without one.
    expect((await put({})).body).toMatchObject({ iban, webhook_url: null, delivery_order: 'concurrent' });
    expect((await put({ webhook_url: url })).body).toMatchObject({ webhook_url: url });
    const ordered = await put({ delivery_order: 'ordered' });
    expect(ordered.status, ordered.text).toBe(200);
    expect(ordered.body).toMatchObject({ iban, webhook_url: url, delivery_order: 'ordered' });
    expect((await put({ tls_ca_certificate: null })).body).toMatchObject({ webhook_url: url });
    await expectDelivered(orgB, iban);
    // Only null removes it.
    expect((await put({ webhook_url: null })).body).toMatchObject({
      webhook_url: null,
      delivery_order: 'ordered',
    });
  });
});

/** Publishes an event of the account and waits until its webhook was delivered: not `skipped`. */
async function expectDelivered(tenant: SeededTenant, iban: string): Promise<void> {
  const id = randomUUID();
  const published = await op.admin('POST', '/events', {
    account: iban,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: 'tr_kept' }),
    id,
  });
  expect(published.status, published.text).toBe(201);
  expect(published.body).toMatchObject({ id, webhook_status: 'pending' });
  await waitFor(
    async () => {
      const shown = await op.api.call(`/events/${id}`, { key: tenant.apiKey });
      return (shown.body as { webhook_status: string }).webhook_status === 'success';
    },
    { timeoutMs: 30_000, what: `the webhook of ${id} to succeed` },
  );
  expect(op.fixture.received.some((request) => request.headers['webhook-id'] === id)).toBe(true);
}
