/**
 * The webhook URL policy of AWS mode (`public-https`): refused when an account is saved, refused by the
 * host check for names resolving to loopback, and refused again at delivery time (by the consumer and by
 * the sender), so a receiver on the host itself never gets a request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostChecker } from '#adapters/http/host-check';
import { HttpWebhookSender } from '#adapters/http/http-webhook-sender';
import { ValidationError } from '#domain/errors';
import type { SeededTenant } from '#local/tenant-seed';
import { putAccount } from '#use-cases/accounts/accounts';
import {
  type DeliveryHarness,
  expectCountsConsistent,
  startDeliveryHarness,
} from '../support/delivery-harness';
import { CIRCUIT_NEVER_OPENS, fastSchedule, testIban } from '../support/delivery-queue-helpers';
import { TRANSFER, transferPayload } from '../support/payloads';
import { type Receiver, startReceiver } from '../support/receiver';
import { sleep } from '../support/wait';

let harness: DeliveryHarness;
let tenant: SeededTenant;
let orgId: string;
let hook: Receiver;

beforeAll(async () => {
  // The consumer runs as in AWS; no waits between attempts, so a refused cycle of 20 ends at once.
  harness = await startDeliveryHarness({
    label: 'e2e-url-policy',
    retrySchedule: fastSchedule(0),
    env: { WEBHOOK_URL_POLICY: 'public-https', ENDPOINT_HEALTH: CIRCUIT_NEVER_OPENS },
  });
  tenant = await harness.createTenant('Policy org');
  orgId = tenant.orgId;
  hook = await startReceiver();
});

afterAll(async () => {
  await hook?.close();
  await harness?.stop();
});

const savePublic = (webhookUrl: string, iban = testIban()) =>
  putAccount(harness.directory, { orgId, iban, webhookUrl }, 'public-https', {
    checkHost: hostChecker('public-https'),
  });

describe('saving a webhook URL under public-https', () => {
  it.each([
    'http://127.0.0.1/hooks',
    'https://10.0.0.1/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://localhost/hooks',
    'https://127.0.0.1/hooks',
    'https://[::1]/hooks',
    'https://0x7f.1/hooks',
    'https://192.168.1.10/hooks',
    'https://sub.localhost/hooks',
  ])('refuses %s with a ValidationError and stores nothing', async (url) => {
    const iban = testIban();
    const attempt = savePublic(url, iban);
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({ params: [{ name: 'webhook_url' }] });
    expect(await harness.directory.getAccount(iban)).toBeUndefined();
  });

  it('accepts a public https address (control)', async () => {
    const account = await savePublic('https://93.184.215.14/hooks');
    expect(account.webhookUrl).toBe('https://93.184.215.14/hooks');
  });
});

describe('hostChecker', () => {
  it('public-https refuses a host name that resolves to loopback', async () => {
    const check = hostChecker('public-https');
    const refused = check(new URL('https://localhost:8443/hooks'));
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(/loopback/);
  });

  it('local allows the same host (control)', async () => {
    await expect(hostChecker('local')(new URL('https://localhost:8443/hooks'))).resolves.toBeUndefined();
  });
});

describe('HttpWebhookSender under public-https', () => {
  const request = (url: string) => ({
    url,
    body: '{"id":"x"}',
    headers: { 'Content-Type': 'application/json' },
  });

  it.each([
    ['an IP literal', (port: number) => `http://127.0.0.1:${port}/hooks`],
    ['a name resolving to loopback', (port: number) => `http://localhost:${port}/hooks`],
  ])('refuses %s of the local receiver before connecting', async (_, url) => {
    const before = hook.requests.length;
    const result = await new HttpWebhookSender('public-https').send(request(url(hook.port)));
    expect(result.status).toBe(0);
    expect(result.body.startsWith('refused')).toBe(true);
    expect(hook.requests.length).toBe(before);
  });

  it('names the kind of address a host resolved to, never the address itself', async () => {
    const result = await new HttpWebhookSender('public-https').send(
      request(`http://localhost:${hook.port}/x`),
    );
    expect(result.body).toBe('refused: localhost resolves to loopback addresses only');
    expect(result.body).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('reaches the same receiver under the local policy (control)', async () => {
    const before = hook.requests.length;
    const result = await new HttpWebhookSender('local').send(request(`http://localhost:${hook.port}/hooks`));
    expect(result.status).toBe(200);
    expect(hook.requests.length).toBe(before + 1);
  });
});

describe('the consumer under public-https', () => {
  it.each([
    ['plain http to loopback', (port: number) => `http://127.0.0.1:${port}/hooks`],
    ['https to localhost', (port: number) => `https://localhost:${port}/hooks`],
  ])('records 20 refused attempts for a stored URL with %s and never connects', async (_, url) => {
    const before = hook.requests.length;
    // Saved under the local policy (as a misconfigured or older account might be), delivered under AWS's.
    const iban = await harness.createAccount(tenant, url(hook.port));
    const { id } = await harness.publish({ account: iban, type: TRANSFER, payload: transferPayload() });

    const view = await harness.waitForEvent(tenant, id, 'failed', { attempts: 20, timeoutMs: 60_000 });
    expectCountsConsistent(view);
    expect(view.webhook_retries).toBe(20);
    for (const attempt of view.webhook_deliveries) {
      expect(attempt.response_status).toBe(0);
      expect(attempt.response_body.startsWith('refused')).toBe(true);
      // What the API shows in response_body never maps the network: no resolved address.
      if (url(0).includes('localhost')) expect(attempt.response_body).not.toMatch(/127\.0\.0\.1|::1/);
    }
    await sleep(1_000);
    expectCountsConsistent(await harness.getEvent(tenant, id));
    expect((await harness.getEvent(tenant, id)).webhook_retries).toBe(20);
    expect(hook.requests.length).toBe(before);
  });
});
