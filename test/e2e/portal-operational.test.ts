/**
 * Operational notices in the portal, in a real browser (headless Chromium) against the local runtime:
 * an account's pages show a banner for each endpoint failing or disabled (the list of accounts: each
 * account's own endpoint; an account's endpoints page: all of them), with since when, why and the
 * receiver's last answer (from the newest notice of the endpoint's current run, shown as text); a manage
 * session enables a disabled endpoint from the banner (the account's default one and a further one, each
 * with its own call) and the banner goes; a read session sees no control. The operational page lists the
 * notices, paged, and a manage session sets and clears the operational webhook URL (a refused URL's
 * reason shown); a read session sees the URL and no form. The health and notices are written with the
 * stores the consumer writes them with.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { testIban } from '../support/delivery-queue-helpers';
import { useOperatorFixture } from '../support/operator-fixture';
import { launchBrowser, screenshot, signedIn, unexpected, type WatchedPage } from '../support/portal-browser';

const TIMEOUT_MS = 120_000;
/** A receiver's body with markup: shown as text, never parsed. */
const MARKUP = '<img src=x onerror="document.title=\'owned\'">maintenance until 04:00';
/** The failing run's attempts. */
const FAILURES = [
  '2026-01-02T03:04:05.000Z',
  '2026-01-02T03:05:05.000Z',
  '2026-01-02T03:06:05.000Z',
  '2026-01-02T03:07:05.000Z',
];

const op = useOperatorFixture();
let browser: Browser;
let org: { id: string; api_key: string };
let iban: string;
/** The account's default endpoint's id, and a further endpoint's. */
let main: string;
let extra: string;

interface EndpointBody {
  endpoint_id: string;
  default: boolean;
  enabled: boolean;
  webhook_health: { state: string };
}

const endpoints = async (): Promise<EndpointBody[]> =>
  (await op.api.call(`/accounts/${iban}/endpoints`, { key: org.api_key })).body as EndpointBody[];

/** Writes through the stores the consumer uses, then lets go of the client. */
async function withStores(
  write: (stores: { health: DynamoEndpointHealthStore; log: DynamoOperationalLog }) => Promise<void>,
): Promise<void> {
  const documents = createDocumentClient();
  const table = op.fixture.runtime.tableName;
  try {
    await write({
      health: new DynamoEndpointHealthStore(documents, table),
      log: new DynamoOperationalLog(documents, table),
    });
  } finally {
    documents.destroy();
  }
}

/** A notice as the consumer stores it. */
function noticeOf(
  kind: NoticeKind,
  endpointId: string,
  epoch: string,
  at: string,
  answer?: { status: number; body: string },
): Notice {
  return {
    id: noticeId({ kind, orgId: org.id, endpointId, epoch }),
    kind,
    orgId: org.id,
    account: iban,
    endpointId,
    epoch,
    at,
    consecutiveFailures: 4,
    reason: 'receiver answered 503',
    disableAt: '2026-01-07T03:04:05.000Z',
    lastAnswer: answer && { status: answer.status, bodyExcerpt: answer.body },
  };
}

async function signIn(scope: 'read' | 'manage', fragment: string): Promise<WatchedPage> {
  const watched = await signedIn(
    browser,
    { baseUrl: op.api.baseUrl, operator: op.operator, orgId: org.id },
    scope,
  );
  await watched.page.evaluate(`location.hash = ${JSON.stringify(fragment)}`);
  return watched;
}

beforeAll(async () => {
  browser = await launchBrowser();
  org = (await op.admin('POST', '/admin/organizations', { name: 'Portal operational' })).body as typeof org;
  iban = testIban();
  const created = await op.admin('PUT', `/admin/accounts/${iban}`, {
    org: org.id,
    webhook_url: 'http://127.0.0.1:9/orders',
  });
  expect(created.status, created.text).toBe(200);
  const added = await op.api.call(`/accounts/${iban}/endpoints`, {
    key: org.api_key,
    method: 'POST',
    body: { url: 'http://127.0.0.1:9/accounting' },
  });
  expect(added.status, added.text).toBe(201);
  const [first, second] = await endpoints();
  main = first?.endpoint_id ?? '';
  extra = second?.endpoint_id ?? '';
  expect(main).toMatch(/^ep_/);
  expect(extra).toMatch(/^ep_/);
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

describe('operational notices in the portal', { timeout: TIMEOUT_MS }, () => {
  it("a failing endpoint's banner shows since when, why and its last answer, as text", async () => {
    await withStores(async ({ health, log }) => {
      for (const at of FAILURES) {
        await health.recordAttempt(
          { iban, orgId: org.id, extra },
          { kind: 'failure', at, latencyMs: 12, reason: 'receiver answered 503' },
        );
      }
      // An earlier run's notice: its answer is not this run's.
      await log.record(
        noticeOf('endpoint_failing', extra, '2025-12-01T00:00:00.000Z', '2025-12-01T00:03:00.000Z', {
          status: 500,
          body: 'an earlier run',
        }),
      );
    });
    const early = await signIn('read', `#/endpoints/${iban}`);
    const before = early.page
      .getByRole('region', { name: 'Endpoints that need attention' })
      .locator(`li[data-banner-endpoint="${extra}"]`);
    await before.getByText('Last answer: not in its notices yet.').waitFor();
    expect(await before.getByText('an earlier run').count()).toBe(0);
    expect(unexpected(early.errors)).toEqual([]);
    await withStores(async ({ log }) => {
      await log.record(
        noticeOf('endpoint_failing', extra, FAILURES[0] ?? '', FAILURES[3] ?? '', {
          status: 503,
          body: MARKUP,
        }),
      );
    });
    for (const scope of ['read', 'manage'] as const) {
      const { page, errors } = await signIn(scope, `#/endpoints/${iban}`);
      const banner = page.getByRole('region', { name: 'Endpoints that need attention' });
      const item = banner.locator(`li[data-banner-endpoint="${extra}"]`);
      await item.waitFor();
      expect(await item.locator('p').first().textContent()).toBe(
        `Endpoint ${extra} of ${iban} is failing: since 2026-01-02 03:04:05 UTC · receiver answered 503 · ` +
          '4 failures in a row · disabled at 2026-01-07 03:04:05 UTC if it keeps failing',
      );
      expect(await item.locator('.answer').textContent()).toBe(`HTTP 503${MARKUP}`);
      await item.locator('q', { hasText: MARKUP }).waitFor();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.title()).not.toBe('owned');
      expect(await banner.getByText('an earlier run').count()).toBe(0);
      // Only the failing endpoint; a failing one is not enabled, it recovers.
      expect(await banner.locator('li').count()).toBe(1);
      expect(await banner.getByRole('button').count()).toBe(0);
      // The list of accounts shows its accounts' own endpoints only (their health comes with the list).
      await page.getByRole('link', { name: 'Endpoints', exact: true }).click();
      await page.locator(`article[data-iban="${iban}"]`).waitFor();
      expect(await page.getByRole('region', { name: 'Endpoints that need attention' }).count()).toBe(0);
      expect(unexpected(errors)).toEqual([]);
    }
  });

  it('a manage session enables disabled endpoints from the banner; a read session sees no control', async () => {
    await withStores(async ({ health, log }) => {
      const at = '2026-01-03T00:00:00.000Z';
      await health.disable({ iban, orgId: org.id }, { at, reason: 'receiver answered 410 Gone' });
      await health.disable({ iban, orgId: org.id, extra }, { at, reason: 'failing for 5 days' });
      await log.record(noticeOf('endpoint_disabled', main, at, at, { status: 410, body: 'gone for good' }));
    });
    const read = await signIn('read', `#/endpoints/${iban}`);
    const readBanner = read.page.getByRole('region', { name: 'Endpoints that need attention' });
    const readMain = readBanner.locator(`li[data-banner-endpoint="${main}"]`);
    await readMain.locator('.answer', { hasText: 'HTTP 410gone for good' }).waitFor();
    await readMain.getByText(`POST /accounts/${iban}/enable`).waitFor();
    await readBanner
      .locator(`li[data-banner-endpoint="${extra}"]`)
      .getByText(`PUT /accounts/${iban}/endpoints/${extra} {"enabled": true}`)
      .waitFor();
    expect(await read.page.getByRole('button').filter({ hasNotText: 'Sign out' }).count()).toBe(0);
    expect(unexpected(read.errors)).toEqual([]);

    const { page, errors } = await signIn('manage', `#/endpoints/${iban}`);
    const banner = page.getByRole('region', { name: 'Endpoints that need attention' });
    expect(await banner.locator(`li[data-banner-endpoint="${main}"] p`).first().textContent()).toBe(
      `Default endpoint ${main} of ${iban} is disabled: since 2026-01-03 00:00:00 UTC · receiver answered 410 Gone`,
    );
    // The further endpoint's own call.
    await banner.getByRole('button', { name: `Enable endpoint ${extra}` }).click();
    await page.getByText(`Enabled endpoint ${extra} of ${iban}.`).waitFor();
    expect((await endpoints()).find((e) => e.endpoint_id === extra)?.enabled).toBe(true);
    // The account's call for its default endpoint, from the list of accounts.
    await page.getByRole('link', { name: 'Endpoints', exact: true }).click();
    const listed = page
      .getByRole('region', { name: 'Endpoints that need attention' })
      .locator(`li[data-banner-endpoint="${main}"]`);
    await listed.locator('.answer', { hasText: 'HTTP 410gone for good' }).waitFor();
    await listed.getByRole('link', { name: 'The account’s endpoints →' }).waitFor();
    await screenshot(page, 'endpoint-banner');
    await listed.getByRole('button', { name: `Enable default endpoint ${main}` }).click();
    await page.locator(`article[data-iban="${iban}"] .badge`, { hasText: 'healthy' }).waitFor();
    expect(await page.getByRole('region', { name: 'Endpoints that need attention' }).count()).toBe(0);
    expect((await endpoints()).map((e) => e.webhook_health.state)).toEqual(['healthy', 'healthy']);
    expect(unexpected(errors)).toEqual([]);
  });

  it('the operational page lists the notices, newest first, paged', async () => {
    // More than a page: 21 older notices of a removed endpoint.
    await withStores(async ({ log }) => {
      for (let i = 0; i < 21; i++) {
        const epoch = `2025-11-${String(i + 1).padStart(2, '0')}T00:00:00.000Z`;
        await log.record(
          noticeOf('endpoint_recovered', 'ep_000000000000', epoch, epoch, { status: 200, body: '' }),
        );
      }
    });
    // Every notice of the organization (those the earlier tests' enablings stored too), as the API lists them.
    const all = (await op.api.call('/operational-events?per_page=100', { key: org.api_key })).body as {
      id: string;
      type: string;
    }[];
    const listed = all.slice(0, 3);
    const newestDisabled = all.find((n) => n.type === 'endpoint_disabled');
    const { page, errors } = await signIn('read', '#/operational');
    await page.getByRole('heading', { name: 'Operational notices' }).waitFor();
    const rows = page.locator('table.notices tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    expect(
      await rows.evaluateAll((all) => all.slice(0, 3).map((row) => row.getAttribute('data-id'))),
    ).toEqual(listed.map((n) => n.id));
    const disabled = page.locator(`table.notices tbody tr[data-id="${newestDisabled?.id}"]`);
    expect(await disabled.locator('td[data-label="What"]').textContent()).toBe('disabled endpoint_disabled');
    expect(await disabled.locator('td[data-label="Account"]').textContent()).toBe(iban);
    expect(await disabled.locator('td[data-label="Last answer"]').textContent()).toBe(
      'HTTP 410gone for good',
    );
    await page.locator('table.notices q', { hasText: MARKUP }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    await screenshot(page, 'operational');
    await page.getByRole('link', { name: 'Older →' }).click();
    expect(all.length).toBeGreaterThan(20);
    await expect.poll(() => rows.count()).toBe(all.length - 20);
    await page.getByRole('link', { name: '← Newer' }).waitFor();
    expect(unexpected(errors)).toEqual([]);
  });

  it('a manage session sets and clears the operational webhook URL; a read session only sees it', async () => {
    const { page, errors } = await signIn('manage', '#/operational');
    const section = page.getByRole('region', { name: 'Operational webhook' });
    await section.getByText('URL: none').waitFor();
    const form = section.getByRole('form', { name: 'Set the operational webhook URL' });
    await form.getByLabel('Operational webhook URL').fill('http://169.254.169.254/latest');
    await form.getByRole('button', { name: 'Save' }).click();
    await section
      .getByRole('alert')
      .getByText(/^url: /)
      .waitFor();
    // A loopback receiver: the host is resolved and checked, and the local runtime allows loopback.
    const url = 'http://127.0.0.1:9/herald?token=s3cret';
    await form.getByLabel('Operational webhook URL').fill(url);
    await form.getByRole('button', { name: 'Save' }).click();
    await section.getByText('Saved.').waitFor();
    await section.getByText(url, { exact: true }).waitFor();
    expect((await op.api.call('/operational-webhook', { key: org.api_key })).body).toMatchObject({ url });

    const read = await signIn('read', '#/operational');
    const readSection = read.page.getByRole('region', { name: 'Operational webhook' });
    await readSection.getByText('http://127.0.0.1:9/herald?token=***', { exact: true }).waitFor();
    expect(await read.page.getByText(/s3cret/).count()).toBe(0);
    expect(await readSection.locator('form, button').count()).toBe(0);
    expect(unexpected(read.errors)).toEqual([]);

    await section.getByRole('button', { name: 'Clear' }).click();
    await section.getByText('Cleared: notices are only listed now.').waitFor();
    await section.getByText('URL: none').waitFor();
    expect((await op.api.call('/operational-webhook', { key: org.api_key })).body).toMatchObject({
      url: null,
    });
    expect(unexpected(errors)).toEqual([expect.stringMatching(/status of 400/)]);
  });
});
