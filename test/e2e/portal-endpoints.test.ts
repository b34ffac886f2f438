/**
 * An account's webhook endpoints in the portal, in a real browser (headless Chromium) against the local
 * runtime: a manage session adds an endpoint with an event type from the catalog and a payload filter
 * (a bad filter's 400 shown beside the field), sees it listed with its health, edits it (only the
 * changed fields sent, a cleared one as null), disables, enables and removes it (confirmed); the default
 * endpoint cannot be removed and says why; the 11th endpoint's 409 is shown. A read session sees the
 * list (URLs masked as the API masks them, a failing endpoint's health, a long filter cut) and no
 * control. Text is shown as text.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import { testIban } from '../support/delivery-queue-helpers';
import { useOperatorFixture } from '../support/operator-fixture';
import { launchBrowser, screenshot, signedIn, unexpected, type WatchedPage } from '../support/portal-browser';

const TIMEOUT_MS = 120_000;
const TYPE = 'direct_debit_status_change';
/** Markup in a description: shown as text, never parsed. */
const MARKUP = '<img src=x onerror="document.title=\'owned\'">Accounting';

const op = useOperatorFixture();
let browser: Browser;
let org: { id: string; api_key: string };
let iban: string;

interface EndpointBody {
  endpoint_id: string;
  url: string | null;
  event_types: string[] | null;
  filter: unknown;
  description: string | null;
  enabled: boolean;
}

const endpoints = async (): Promise<EndpointBody[]> =>
  (await op.api.call(`/accounts/${iban}/endpoints`, { key: org.api_key })).body as EndpointBody[];

async function signIn(scope: 'read' | 'manage'): Promise<WatchedPage> {
  const watched = await signedIn(
    browser,
    { baseUrl: op.api.baseUrl, operator: op.operator, orgId: org.id },
    scope,
  );
  await watched.page.getByRole('link', { name: 'Endpoints', exact: true }).click();
  await watched.page
    .locator(`article[data-iban="${iban}"]`)
    .getByRole('link', { name: 'All endpoints and subscriptions →' })
    .click();
  await watched.page.getByRole('heading', { name: `Endpoints of ${iban}` }).waitFor();
  return watched;
}

/** The bodies of the page's writes of endpoints, in order. */
function writes(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && /\/endpoints/.test(request.url())) {
      sent.push(`${request.method()} ${request.postData() ?? ''}`);
    }
  });
  return sent;
}

beforeAll(async () => {
  browser = await launchBrowser();
  org = (await op.admin('POST', '/admin/organizations', { name: 'Portal endpoints' })).body as typeof org;
  iban = testIban();
  const created = await op.admin('PUT', `/admin/accounts/${iban}`, {
    org: org.id,
    webhook_url: 'http://127.0.0.1:9/orders',
  });
  expect(created.status, created.text).toBe(200);
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

describe("an account's endpoints in the portal", { timeout: TIMEOUT_MS }, () => {
  it('a manage session adds, lists with health, edits, disables, enables and removes an endpoint', async () => {
    const { page, errors } = await signIn('manage');
    const sent = writes(page);
    const defaults = page.locator('article.endpoint').first();
    await defaults.getByText("default: the account's webhook_url").waitFor();
    expect(await defaults.getByRole('button', { name: 'Remove', exact: true }).count()).toBe(0);
    await defaults
      .getByText(/The default endpoint is the account's webhook URL and stays with the account/)
      .waitFor();

    const add = page.getByRole('form', { name: `Add an endpoint to ${iban}` });
    await add.getByLabel('URL').fill('http://127.0.0.1:9/accounting?token=s3cret');
    await add
      .getByRole('group', { name: /Event types of a new endpoint/ })
      .getByLabel(TYPE)
      .check();
    // Not JSON: refused in the page, nothing sent.
    await add.getByLabel(/Payload filter/).fill('{"status": [');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add
      .locator('[data-error="filter"]')
      .getByText(/^Not JSON/)
      .waitFor();
    expect(sent).toEqual([]);
    // JSON the API refuses: its reason beside the filter, naming the filter's path.
    await add.getByLabel(/Payload filter/).fill('{"status": [{"numeric": [">>", 5]}]}');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add
      .locator('[data-error="filter"]')
      .getByText(/^filter\/status\/0/)
      .waitFor();
    expect(await add.locator('[data-error="url"]').textContent()).toBe('');
    expect(await endpoints()).toHaveLength(1);

    await add.getByLabel(/Payload filter/).fill('{"status": ["failed"]}');
    await add.getByLabel('Description').fill(MARKUP);
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText(/^Added endpoint ep_[0-9a-f]{12}\.$/).waitFor();
    const [, added] = await endpoints();
    expect(added).toMatchObject({
      url: 'http://127.0.0.1:9/accounting?token=s3cret',
      event_types: [TYPE],
      filter: { status: ['failed'] },
      description: MARKUP,
      enabled: true,
    });
    const card = page.locator(`article[data-endpoint="${added?.endpoint_id}"]`);
    await card.getByText('http://127.0.0.1:9/accounting?token=s3cret', { exact: true }).waitFor();
    await card.getByText(MARKUP, { exact: true }).waitFor();
    expect(await page.locator('article img').count()).toBe(0);
    expect(await card.locator('dd', { hasText: TYPE }).count()).toBe(1);
    expect(JSON.parse((await card.locator('pre.filter').textContent()) ?? '')).toEqual({
      status: ['failed'],
    });
    await card.locator('p', { hasText: 'Health:' }).locator('.badge', { hasText: 'healthy' }).waitFor();
    await screenshot(page, 'account-endpoints');

    // Edit: the cleared filter is sent as null, the changed description, and nothing else.
    await card.getByText('Edit', { exact: true }).click();
    const edit = card.getByRole('form', { name: `Edit endpoint ${added?.endpoint_id}` });
    await edit.getByLabel(/Payload filter/).fill('');
    await edit.getByLabel('Description').fill('Books');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved endpoint ${added?.endpoint_id}.`).waitFor();
    expect(sent.at(-1)).toBe(`PUT ${JSON.stringify({ filter: null, description: 'Books' })}`);
    expect((await endpoints())[1]).toMatchObject({ event_types: [TYPE], filter: null, description: 'Books' });
    const edited = page.locator(`article[data-endpoint="${added?.endpoint_id}"]`);
    await edited.locator('dd', { hasText: 'every payload' }).waitFor();

    await edited.getByRole('button', { name: 'Disable' }).click();
    await page.getByText(`Disabled endpoint ${added?.endpoint_id}.`).waitFor();
    await edited.locator('p', { hasText: 'Health:' }).locator('.badge', { hasText: 'disabled' }).waitFor();
    expect((await endpoints())[1]?.enabled).toBe(false);
    await edited.getByRole('button', { name: 'Enable' }).click();
    await page.getByText(`Enabled endpoint ${added?.endpoint_id}.`).waitFor();
    expect((await endpoints())[1]?.enabled).toBe(true);

    await edited.getByRole('button', { name: 'Remove', exact: true }).click();
    await edited.getByRole('button', { name: 'Yes, remove it' }).click();
    await page.getByText(`Removed endpoint ${added?.endpoint_id}.`).waitFor();
    expect(await page.locator('article.endpoint').count()).toBe(1);
    expect(await endpoints()).toHaveLength(1);
    expect(unexpected(errors)).toEqual([expect.stringMatching(/status of 400/)]);
  });

  it("shows the 11th endpoint's 409 beside the form", async () => {
    for (let i = (await endpoints()).length; i < MAX_ENDPOINTS_PER_ACCOUNT; i += 1) {
      const more = await op.api.call(`/accounts/${iban}/endpoints`, {
        key: org.api_key,
        method: 'POST',
        body: { url: `http://127.0.0.1:9/r${i}` },
      });
      expect(more.status, more.text).toBe(201);
    }
    const { page, errors } = await signIn('manage');
    await expect.poll(() => page.locator('article.endpoint').count()).toBe(MAX_ENDPOINTS_PER_ACCOUNT);
    await page
      .getByText(`The account has ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints: remove one first.`)
      .waitFor();
    const add = page.getByRole('form', { name: `Add an endpoint to ${iban}` });
    await add.getByLabel('URL').fill('http://127.0.0.1:9/eleventh');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByRole('alert').getByText(`${MAX_ENDPOINTS_PER_ACCOUNT} endpoints`).waitFor();
    expect(await endpoints()).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT);
    expect(unexpected(errors)).toEqual([expect.stringMatching(/status of 409/)]);
  });

  it('a read session sees the endpoints, URLs masked, health and a long filter cut, and no control', async () => {
    const [, first] = await endpoints();
    const long = {
      reference: Array.from({ length: 100 }, (_, i) => `invoice-${String(i).padStart(20, '0')}`),
    };
    const changed = await op.api.call(`/accounts/${iban}/endpoints/${first?.endpoint_id}`, {
      key: org.api_key,
      method: 'PUT',
      body: { url: 'http://127.0.0.1:9/hooks?token=s3cret', filter: long },
    });
    expect(changed.status, changed.text).toBe(200);
    // Two failed attempts at it, as the consumer writes them.
    const documents = createDocumentClient();
    const health = new DynamoEndpointHealthStore(documents, op.fixture.runtime.tableName);
    const address = { iban, orgId: org.id, extra: first?.endpoint_id };
    for (const at of ['2026-01-02T03:04:05.000Z', '2026-01-02T03:05:05.000Z']) {
      await health.recordAttempt(address, {
        kind: 'failure',
        at,
        latencyMs: 12,
        reason: 'receiver answered 503',
      });
    }
    documents.destroy();
    const { page, errors } = await signIn('read');
    await expect.poll(() => page.locator('article.endpoint').count()).toBe(MAX_ENDPOINTS_PER_ACCOUNT);
    const card = page.locator(`article[data-endpoint="${first?.endpoint_id}"]`);
    await card.getByText('http://127.0.0.1:9/hooks?token=***', { exact: true }).waitFor();
    expect(await card.locator('p', { hasText: 'Health:' }).textContent()).toBe(
      'Health: degraded since 2026-01-02 03:04:05 · receiver answered 503 · 2 failures in a row · ' +
        'failing since 2026-01-02 03:04:05 · last failed 2026-01-02 03:05:05',
    );
    expect(await page.getByText(/s3cret/).count()).toBe(0);
    const shown = (await card.locator('pre.filter').textContent()) ?? '';
    expect(shown.length).toBeLessThanOrEqual(600);
    expect(shown.endsWith('…')).toBe(true);
    expect(JSON.stringify(long, null, 2).startsWith(shown.slice(0, -1))).toBe(true);
    expect(await page.getByRole('button').filter({ hasNotText: 'Sign out' }).count()).toBe(0);
    expect(await page.locator('form, details').count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
  });
});
