/**
 * The portal's event type catalog in a real browser (headless Chromium) against the local runtime: the
 * catalog reached from the navigation with a `read` session, every type listed (an operator's
 * registered one included), a type's fields as a table, its conditions and examples, and an operator's
 * type with two versions, each version's own fields. No console error (the page's CSP included).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { schemaFields } from '#domain/event-types/schema-fields';
import { NOTICE_KINDS } from '#domain/notices/notice';
import { type SeededTenant, TenantSeeder } from '#local/tenant-seed';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, connectApi } from '../support/e2e-http';
import { CARD_DECLARATION, CARD_V2, CARD_V2_EXAMPLES } from '../support/event-type-samples';
import {
  launchBrowser,
  type openPage,
  screenshot,
  signedIn,
  type WatchedPage,
} from '../support/portal-browser';
import { testEndpoints, uniquePrefix } from '../support/resources';

const TIMEOUT_MS = 120_000;
const CARD = 'acme.card_settled';
let runtime: LocalRuntime;
let api: ApiClient;
let tenant: SeededTenant;
let browser: Browser;

beforeAll(async () => {
  runtime = await startLocalRuntime({ endpoints: testEndpoints(), prefix: uniquePrefix('e2e-catalog') });
  const documents = createDocumentClient();
  tenant = await new TenantSeeder(documents, runtime.tableName).tenant('Catalog Org');
  documents.destroy();
  api = await connectApi(runtime.baseUrl);
  const put = (body: unknown) =>
    api.call(`/admin/event-types/${CARD}`, { method: 'PUT', sign: runtime.credentials, body });
  expect((await put(CARD_DECLARATION)).status).toBe(201);
  expect((await put({ schema: CARD_V2, examples: CARD_V2_EXAMPLES })).status).toBe(200);
  browser = await launchBrowser();
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

async function signIn(options?: Parameters<typeof openPage>[1]): Promise<WatchedPage> {
  const at = { baseUrl: runtime.baseUrl, operator: runtime.credentials, orgId: tenant.orgId };
  return signedIn(browser, at, 'read', options);
}

describe('the portal’s event type catalog', { timeout: TIMEOUT_MS }, () => {
  it('lists every type from the navigation and shows a built-in type’s fields, conditions and examples', async () => {
    const { page, errors } = await signIn();
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Event types' }).click();
    await page.getByRole('heading', { name: 'Event types' }).waitFor();
    const rows = page.locator('table.catalog tbody tr');
    const shipped = [...BUILT_IN_EVENT_TYPES.map((d) => d.type), ...NOTICE_KINDS];
    await expect.poll(() => rows.count()).toBe(shipped.length + 1);
    const names = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-type')));
    expect(names).toEqual([CARD, ...shipped].sort());
    expect(await page.locator(`tr[data-type="${CARD}"]`).textContent()).toContain('registered');
    expect(await page.locator('tr[data-type="endpoint_failing"]').textContent()).toContain('operational');
    await screenshot(page, 'event-types');

    const transfer = BUILT_IN_EVENT_TYPES.find((d) => d.type === 'credit_transfer_status_change');
    if (transfer === undefined) throw new Error('no credit_transfer_status_change');
    await page.getByRole('link', { name: transfer.type, exact: true }).click();
    await page.getByRole('heading', { name: 'Fields of version 1' }).waitFor();
    const fields = page.locator('table.fields tbody tr');
    const expected = schemaFields(transfer.versions[0]?.schema ?? {});
    await expect.poll(() => fields.count()).toBe(expected.length);
    const status = page.locator('tr[data-field="status"]');
    expect(await status.locator('td[data-label="Required"]').textContent()).toBe('yes');
    expect(await status.locator('td[data-label="Values"]').textContent()).toContain('rejected');
    expect(await page.getByRole('heading', { name: 'Conditions' }).count()).toBe(1);
    const examples = transfer.versions[0]?.examples ?? [];
    expect(await page.getByRole('heading', { name: `Examples (${examples.length})` }).count()).toBe(1);
    expect(await page.getByLabel(`example ${examples[0]?.name}`, { exact: true }).textContent()).toBe(
      JSON.stringify(examples[0]?.payload, null, 2),
    );
    await screenshot(page, 'event-type');
    expect(errors).toEqual([]);
  });

  it('shows each version of an operator’s type with its own fields, the latest first', async () => {
    const { page, errors } = await signIn({ width: 390 });
    await page.goto(`${runtime.baseUrl}/portal#/event-types/${CARD}`);
    await page.getByRole('heading', { name: 'Fields of version 2' }).waitFor();
    expect(await page.locator('tr[data-field="currency"]').count()).toBe(1);
    const versions = page.getByRole('navigation', { name: 'Versions' });
    expect(await versions.getByRole('link').allTextContents()).toEqual(['1', '2 (latest)']);
    await versions.getByRole('link', { name: '1', exact: true }).click();
    await page.getByRole('heading', { name: 'Fields of version 1' }).waitFor();
    expect(await page.locator('tr[data-field="currency"]').count()).toBe(0);
    expect(await page.locator('tr[data-field="amount"]').count()).toBe(1);
    await screenshot(page, 'event-type-phone');
    expect(errors).toEqual([]);
  });
});
