/**
 * Deploy fidelity: the handler bundles `cdk synth` writes into the cloud assembly (what `cdk deploy`
 * uploads), not the TypeScript sources, run through the local runtime: publish → webhook received and
 * verified → `GET /events/{id}`, a test event received and verified, and the OpenAPI document the bundle
 * serves. The assembly is the one named by `HERALD_TEST_ASSEMBLY` (`.ci/run` passes the `cdk.out` it has
 * just synthesized), else one this file synthesizes into a temporary directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { FUNCTIONS } from '#config/functions';
import { buildOpenApiDocument } from '#http/openapi/document';
import { apiClient } from '../../scripts/cli/api-client';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type SeededTenant, TenantSeeder } from '../../scripts/local/tenant-seed';
import { type ApiClient, connectApi } from '../support/e2e-http';
import { TRANSFER, transferPayload } from '../support/payloads';
import { type Receiver, reply, startReceiver } from '../support/receiver';
import { testEndpoints, uniquePrefix } from '../support/resources';

const ROOT = resolve(import.meta.dirname, '../..');
const IBAN = 'DE89370400440532013000';

interface Fixture {
  readonly assembly: string;
  readonly runtime: LocalRuntime;
  readonly receiver: Receiver;
  readonly tenant: SeededTenant;
  readonly api: ApiClient;
  stop(): Promise<void>;
}

/** The assembly to run: the given one, or a fresh `cdk synth` (bundling included) into a temporary directory. */
async function assembly(): Promise<{ dir: string; remove: () => void }> {
  const given = process.env.HERALD_TEST_ASSEMBLY;
  if (given) return { dir: resolve(given), remove: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'herald-assembly-'));
  await promisify(execFile)(join(ROOT, 'node_modules/.bin/cdk'), ['synth', '--quiet', '--output', dir], {
    cwd: ROOT,
    timeout: 600_000,
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function start(): Promise<Fixture> {
  const { dir, remove } = await assembly();
  const receiver = await startReceiver(() => reply.status(204));
  const runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('bundles'),
    bundles: { dir },
  }).catch(async (error: unknown) => {
    await receiver.close();
    remove();
    throw error;
  });
  const stop = async () => {
    await runtime.stop();
    await receiver.close();
    remove();
  };
  try {
    const tenant = await new TenantSeeder(createDocumentClient(), runtime.tableName).tenant('Bundles', [
      { iban: IBAN, webhookUrl: receiver.url },
    ]);
    return { assembly: dir, runtime, receiver, tenant, api: await connectApi(runtime.baseUrl), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

let fixture: Fixture;
// A synthesis bundles 18 functions: minutes on a busy two-core machine, more than the default hook timeout.
beforeAll(async () => {
  fixture = await start();
}, 600_000);
afterAll(async () => {
  await fixture?.stop();
});

describe('the synthesized bundles, run locally', () => {
  it('are what the runtime imported: every function from its asset in the assembly', () => {
    const sources = Object.values(fixture.runtime.handlerSources);
    expect(sources).toHaveLength(Object.keys(FUNCTIONS).length);
    for (const source of sources) {
      expect(source).toMatch(
        new RegExp(`^${pathToFileURL(fixture.assembly).href}/asset\\.[0-9a-f]{64}/index\\.mjs$`),
      );
    }
  });

  it('publish → a verified webhook → GET /events/{id} shows the attempt', async () => {
    const { runtime, receiver, tenant, api } = fixture;
    const call = apiClient({
      apiUrl: runtime.baseUrl,
      region: 'us-east-1',
      credentials: async () => runtime.credentials,
    });
    const payload = transferPayload({ transfer_id: 'tr_bundle' });
    const published = await call('POST', '/events', { account: IBAN, type: TRANSFER, payload });
    expect(published.status).toBe(201);
    const { id } = published.body as { id: string };

    const [webhook] = await receiver.waitForRequests(1);
    expect(webhook?.headers['webhook-id']).toBe(id);
    const verified = new Webhook(tenant.webhookToken).verify(webhook?.body ?? '', {
      'webhook-id': String(webhook?.headers['webhook-id']),
      'webhook-timestamp': String(webhook?.headers['webhook-timestamp']),
      'webhook-signature': String(webhook?.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ id, account: IBAN, payload });

    let event: { webhook_status?: string; webhook_deliveries?: { response_status: number }[] } = {};
    for (let tries = 0; tries < 50 && event.webhook_status !== 'success'; tries += 1) {
      event = (await api.call(`/events/${id}`, { key: tenant.apiKey })).body as typeof event;
      if (event.webhook_status !== 'success') await new Promise((done) => setTimeout(done, 100));
    }
    expect(event.webhook_status).toBe('success');
    expect(event.webhook_deliveries?.map((attempt) => attempt.response_status)).toEqual([204]);
  });

  it('send a test event, signed and marked, through the bundled test event sender', async () => {
    const { receiver, tenant, api } = fixture;
    const before = receiver.requests.length;
    const answered = await api.call(`/accounts/${IBAN}/test-events`, {
      method: 'POST',
      key: tenant.apiKey,
      body: { type: 'credit_received' },
    });
    expect(answered.status, answered.text).toBe(200);
    const sent = answered.body as { id: string; delivery: { response_status: number } };
    expect(sent.delivery.response_status).toBe(204);
    const [webhook] = (await receiver.waitForRequests(before + 1)).slice(before);
    expect(webhook?.headers['herald-test']).toBe('true');
    const verified = new Webhook(tenant.webhookToken).verify(webhook?.body ?? '', {
      'webhook-id': String(webhook?.headers['webhook-id']),
      'webhook-timestamp': String(webhook?.headers['webhook-timestamp']),
      'webhook-signature': String(webhook?.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ id: sent.id, account: IBAN, sequence: null, test: true });
  });

  it('serve the OpenAPI document the sources build', () => {
    expect(fixture.api.document).toEqual(buildOpenApiDocument(fixture.runtime.baseUrl));
  });
});
