/**
 * The webhook portal in a real browser (headless Chromium) against the local runtime with the real
 * handlers: sign-in by link and by API key, filters and paging, an event's attempts and request,
 * redelivery with a manage link, no redelivery with a read link (and the API's refusal of a read key), an
 * expired link, endpoints: one summary call per account card, URL edit, health, re-enable with recovery,
 * a test event from a card, token show and rotation with an overlap; sign-out revokes the session key.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import type { EventDetailView } from '#http/events/event-view';
import type { WebhookTokenView } from '#http/organizations/webhook-token-view';
import { toPortalLinkView } from '#http/portal/portal-view';
import type { SeededTenant } from '#local/tenant-seed';
import { createApiKey } from '#use-cases/organizations/api-keys';
import { mintPortalLink } from '#use-cases/organizations/portal-access';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { CREDIT, creditPayload, DEBIT, debitPayload, TRANSFER, transferPayload } from '../support/payloads';
import {
  launchBrowser,
  mintLink,
  openPage,
  rows,
  screenshot,
  signedIn,
  unexpected,
  type WatchedPage,
} from '../support/portal-browser';
import { type Receiver, reply } from '../support/receiver';
import { waitFor } from '../support/wait';

const TIMEOUT_MS = 120_000;
let harness: DeliveryHarness;
/** The emulated authorizer cache: short, so that a signed-out key's 401 comes within the test. */
const CACHE_SECONDS = 1;
const startReceiver = setupDeliveryFile(
  { label: 'e2e-portal', retrySchedule: fastSchedule(1, 2), authorizerCacheTtlSeconds: CACHE_SECONDS },
  (h) => {
    harness = h;
  },
);

let browser: Browser;
let tenant: SeededTenant;
let receiver: Receiver;
let hooked: string;
let unhooked: string;
const ids: Record<string, string> = {};

async function signIn(
  scope: 'read' | 'manage',
  options?: Parameters<typeof openPage>[1],
  orgId = tenant.orgId,
): Promise<WatchedPage> {
  const { baseUrl, credentials } = harness.runtime;
  return signedIn(browser, { baseUrl, operator: credentials, orgId }, scope, options);
}

/** The payload of the event `name`, a valid one of its type that names it. */
function payloadOf(
  name: string,
  type: typeof TRANSFER | typeof DEBIT | typeof CREDIT,
): Record<string, unknown> {
  if (type === TRANSFER) return transferPayload({ transfer_id: `tr_${name}` });
  if (type === DEBIT) return debitPayload({ collection_id: `dd_${name}` });
  return creditPayload({ entry_reference: name });
}

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await harness.createTenant('Portal Test Org');
  receiver = await startReceiver(() => reply.status(200, 'thanks'));
  hooked = await harness.createAccount(tenant, receiver.url);
  unhooked = await harness.createAccount(tenant);
  for (const [name, account, type] of [
    ['first', hooked, TRANSFER],
    ['second', hooked, TRANSFER],
    ['debit', hooked, DEBIT],
    ['skipped', unhooked, CREDIT],
    ['skippedToo', unhooked, CREDIT],
  ] as const) {
    ids[name] = (await harness.publish({ account, type, payload: payloadOf(name, type) })).id;
  }
  for (const name of ['first', 'second', 'debit'])
    await harness.waitForEvent(tenant, ids[name] ?? '', 'success');
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

describe('the portal page', { timeout: TIMEOUT_MS }, () => {
  it('signs in with a manage link, filters, pages, opens an event and shows the request as sent', async () => {
    const { page, errors } = await signIn('manage');
    expect(page.url()).not.toContain('token=');
    await expect.poll(() => rows(page).count()).toBe(5);
    await expect.poll(() => page.locator('.scope').textContent()).toBe('manage access');
    await screenshot(page, 'events');

    await page.getByLabel('Status').selectOption('skipped');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).first().locator('.badge').textContent()).toBe('skipped');
    await page.getByLabel('Type').fill(DEBIT);
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);

    await page.getByRole('link', { name: 'Clear' }).click();
    await expect.poll(() => rows(page).count()).toBe(5);
    await page.goto(`${harness.runtime.baseUrl}/portal#/events?per_page=2`);
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.getByRole('link', { name: 'Older →' }).click();
    await expect.poll(() => page.getByText('Page 2').count()).toBe(1);
    await page.getByRole('link', { name: 'Older →' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Older →' }).count()).toBe(0);

    await page.goto(`${harness.runtime.baseUrl}/portal#/events`);
    await page.locator(`tr[data-id="${ids.debit}"] td[data-label="Type"] a`).click();
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    const attempt = await page.locator('table.attempts tbody tr').first().textContent();
    expect(attempt).toMatch(/HTTP 200 · ok.*thanks/);
    // Each attempt shows its own URL and the id of the token that signed it.
    expect(attempt).toContain(receiver.url);
    expect(attempt).toMatch(/whk_[0-9a-f]{16}/);
    expect(await page.getByText(`POST ${receiver.url}`).count()).toBe(1);
    const sent = receiver.requests.find((r) => r.headers['webhook-id'] === ids.debit);
    expect(await page.getByLabel('body', { exact: true }).textContent()).toBe(sent?.body);
    expect(await page.locator('table.headers').textContent()).toContain(sent?.headers['x-signature']);
    expect(await page.getByLabel('payload', { exact: true }).textContent()).toBe(
      JSON.stringify(payloadOf('debit', DEBIT), null, 2),
    );
    await screenshot(page, 'event');
    expect(unexpected(errors)).toEqual([]);
  });

  it('redelivers with a manage link and shows the new attempt when it lands', async () => {
    const { page, errors } = await signIn('manage');
    await harness.setWebhookUrl(tenant, unhooked, receiver.url);
    await page.goto(`${harness.runtime.baseUrl}/portal#/events/${ids.skipped}`);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText(/New attempt landed: HTTP 200 in \d+ ms/).waitFor({ timeout: 60_000 });
    expect(await page.locator('table.attempts tr.fresh').count()).toBe(1);
    const view = await harness.api<EventDetailView>(tenant, 'GET', `/events/${ids.skipped}`);
    expect(view.body.webhook_status).toBe('success');
    await harness.setWebhookUrl(tenant, unhooked, undefined);
    expect(unexpected(errors)).toEqual([]);
  });

  it('shows when a pending event’s next attempt is due, and makes it now on request', async () => {
    // Another organization, so the first one's event list keeps its count.
    const other = await harness.createTenant('Portal Pending Org');
    const later = await startReceiver(() => reply.status(503, 'later'));
    const quiet = await harness.quietPendingEvent(other, later.url);
    const { id } = quiet;
    const failure = { deliveredAt: new Date().toISOString(), responseStatus: 503, responseBody: 'later' };
    await harness.events.recordAttempt(
      quiet,
      { ...failure, responseTimeMs: 3 },
      'pending',
      Date.now() + 3_600_000,
    );
    const due = (await harness.getEvent(other, id)).next_attempt_at;
    expect(due).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const { page, errors } = await signIn('manage', undefined, other.orgId);
    await page.goto(`${harness.runtime.baseUrl}/portal#/events/${id}`);
    await page.getByText(due ?? '').waitFor();
    later.setScript(() => reply.status(200, 'now'));
    await page.getByRole('button', { name: 'Attempt now' }).click();
    await page.getByText(/New attempt landed: HTTP 200 in \d+ ms/).waitFor({ timeout: 60_000 });
    expect((await harness.getEvent(other, id)).webhook_deliveries.map((d) => d.response_status)).toEqual([
      503, 200,
    ]);
    expect(unexpected(errors)).toEqual([]);
  });

  it('offers no redelivery to a read link', async () => {
    const { page } = await signIn('read');
    expect(await page.locator('.scope').textContent()).toBe('read access');
    await page.goto(`${harness.runtime.baseUrl}/portal#/events/${ids.skippedToo}`);
    await page.getByText('Redelivery needs a portal link with manage access.').waitFor();
    expect(await page.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
  });

  it('shows a clear message when the API refuses a redelivery to a read key (403)', async () => {
    // A pasted key is offered manage actions and the API decides: the authorizer's policy refuses a read key.
    const apiKeys = new DynamoApiKeyStore(harness.documents, harness.runtime.tableName);
    const readKey = await createApiKey(harness.directory, apiKeys, tenant.orgId, {
      name: 'read',
      scope: 'read',
    });
    const { page } = await openPage(browser);
    await page.goto(`${harness.runtime.baseUrl}/portal`);
    await page.getByLabel('API key').fill(readKey.secret);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.goto(`${harness.runtime.baseUrl}/portal#/events/${ids.skippedToo}`);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page
      .getByRole('alert')
      .getByText(/^Refused: this session may not do that\. These credentials may not call this route/)
      .waitFor();
    const view = await harness.api<EventDetailView>(tenant, 'GET', `/events/${ids.skippedToo}`);
    expect(view.body.webhook_deliveries).toEqual([]);
  });

  it('refuses an expired link and a used link with a clear message', async () => {
    const expired = toPortalLinkView(
      await mintPortalLink(
        harness.directory,
        new DynamoPortalLinkStore(harness.documents, harness.runtime.tableName),
        tenant.orgId,
        { scope: 'manage', ttlMinutes: 1 },
        () => Date.now() - 5 * 60_000,
      ),
      harness.runtime.baseUrl,
    );
    const { page } = await openPage(browser);
    await page.goto(expired.url);
    await page
      .getByRole('alert')
      .getByText(`This sign-in link expired at ${expired.expires_at} UTC.`)
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Events' }).count()).toBe(0);

    const link = await mintLink(harness.runtime.baseUrl, harness.runtime.credentials, tenant.orgId, 'read');
    const first = await openPage(browser);
    await first.page.goto(link);
    await first.page.getByRole('heading', { name: 'Events' }).waitFor();
    const second = await openPage(browser);
    await second.page.goto(link);
    await second.page
      .getByRole('alert')
      .getByText(/already used/)
      .waitFor();
  });

  it('signs in with a pasted API key and refuses an unknown one', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${harness.runtime.baseUrl}/portal`);
    await page.getByLabel('API key').fill('herald_not-a-key');
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .getByText(/valid API key is required/)
      .waitFor();
    await page.getByLabel('API key').fill(tenant.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(5);
  });

  it('shows endpoints with their charts, edits a URL, shows and rotates the token with an overlap', async () => {
    const { page, errors } = await signIn('manage');
    // Every API call the endpoints page makes: the page of accounts, then one summary per account card
    // (with no endpoint failing, the banner reads no notices).
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === new URL(harness.runtime.baseUrl).origin && !url.pathname.endsWith('/portal')) {
        calls.push(`${request.method()} ${url.pathname}${url.search}`);
      }
    });
    await page.getByRole('link', { name: 'Endpoints' }).click();
    const card = page.locator(`article[data-iban="${hooked}"]`);
    await card.locator('svg[aria-label^="24 h: 100 % of 3 attempts succeeded"]').waitFor();
    await page.locator(`article[data-iban="${unhooked}"] svg[aria-label^="7 days:"]`).first().waitFor();
    expect(calls.sort()).toEqual(
      [
        'GET /accounts?page=1&per_page=10',
        `GET /accounts/${hooked}/delivery-stats`,
        `GET /accounts/${unhooked}/delivery-stats`,
      ].sort(),
    );
    await screenshot(page, 'endpoints');

    const url = `${receiver.url}/edited`;
    await card.getByLabel(`Webhook URL of ${hooked}`).fill(url);
    await card.getByLabel(`Delivery order of ${hooked}`).selectOption('ordered');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText(url, { exact: true }).waitFor();
    await page.locator(`article[data-iban="${hooked}"] p`, { hasText: 'Delivery order: ordered' }).waitFor();
    const accounts = await harness.api<
      { iban: string; webhook_url: string | null; delivery_order: string }[]
    >(tenant, 'GET', '/accounts');
    expect(accounts.body.find((account) => account.iban === hooked)).toMatchObject({
      webhook_url: url,
      delivery_order: 'ordered',
    });
    await harness.setWebhookUrl(tenant, hooked, receiver.url);
    await card.locator('p', { hasText: 'Health:' }).locator('.badge', { hasText: 'healthy' }).waitFor();

    // A disabled endpoint (as a 410 leaves it) shows why, and a manage session re-enables it.
    const health = new DynamoEndpointHealthStore(createDocumentClient(), harness.runtime.tableName);
    await health.disable(
      { iban: hooked, orgId: tenant.orgId },
      { at: new Date().toISOString(), reason: 'receiver answered 410 Gone' },
    );
    await page.reload();
    const disabled = page.locator(`article[data-iban="${hooked}"]`);
    await disabled.getByText(/receiver answered 410 Gone/).waitFor();
    await disabled.getByLabel('Redeliver failures since (UTC)').fill('2020-01-01T00:00');
    await disabled.getByRole('button', { name: 'Re-enable' }).click();
    await disabled.locator('.badge', { hasText: 'healthy' }).waitFor();
    const enabled = await harness.api<{ webhook_health: { state: string; reason: string } }>(
      tenant,
      'GET',
      `/accounts/${hooked}`,
    );
    expect(enabled.body.webhook_health).toMatchObject({ state: 'healthy', reason: 'enabled by an operator' });
    expect(await disabled.getByRole('button', { name: 'Re-enable' }).count()).toBe(0);

    const token = page.getByRole('region', { name: 'Webhook token' });
    await token.getByRole('button', { name: 'Show token' }).click();
    const before = await token
      .locator('pre')
      .getByText(/^whsec_/)
      .textContent();
    await token.getByLabel('Overlap in hours').fill('2');
    await token.getByRole('button', { name: 'Rotate token' }).click();
    await token.getByText('Rotated. New token:').waitFor();
    const rotated = await token
      .locator('pre')
      .getByText(/^whsec_/)
      .textContent();
    expect(rotated).not.toBe(before);
    await token.getByText(/The previous token also signs webhooks until .+ UTC\./).waitFor();
    const shown = await harness.api<WebhookTokenView>(tenant, 'GET', '/webhook-token');
    expect(shown.body.webhook_token).toBe(rotated);
    expect(shown.body.previous?.webhook_token).toBe(before);
    const hours =
      (Date.parse(`${shown.body.previous?.expires_at.replace(' ', 'T')}Z`) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
    expect(unexpected(errors)).toEqual([]);
  });

  it("sends a test event from an account's card with a manage session, and offers none to a read session", async () => {
    const { page, errors } = await signIn('manage');
    await page.getByRole('link', { name: 'Endpoints' }).click();
    const card = page.locator(`article[data-iban="${hooked}"]`);
    const before = receiver.requests.length;
    await card.getByLabel(`Event type of a test event to ${hooked}`).fill('credit_transfer_status_change');
    await card.getByRole('button', { name: 'Send test event' }).click();
    await card
      .getByText(
        /^Test event credit_transfer_status_change v1 \(\w+\): the receiver answered 200 in \d+ ms\.$/,
      )
      .waitFor();
    await card.getByLabel('Receiver answer').getByText('thanks').waitFor();
    await screenshot(page, 'endpoints-test-event');
    const arrived = receiver.requests.slice(before);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]?.headers['herald-test']).toBe('true');
    const body = JSON.parse(arrived[0]?.body ?? '');
    expect(body).toMatchObject({ account: hooked, sequence: null, test: true });
    // Not an event: the organization's events are those published, the test's id none of them.
    const events = await harness.api<{ id: string }[]>(tenant, 'GET', '/events?per_page=100');
    expect(events.body.map((event) => event.id)).not.toContain(body.id);
    expect(unexpected(errors)).toEqual([]);
    // A type the catalog lacks: the message names those it has (the browser logs the 422 it provoked).
    await card.getByLabel(`Event type of a test event to ${hooked}`).fill('no_such_type');
    await card.getByRole('button', { name: 'Send test event' }).click();
    await card
      .getByRole('alert')
      .getByText(
        /type: no_such_type is not an event type of the catalog; the known types are credit_received, credit_transfer_status_change/,
      )
      .waitFor();
    // No form on a card without a URL, none for a read session.
    const bare = page.locator(`article[data-iban="${unhooked}"]`);
    expect(await bare.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
    expect(unexpected(errors)).toEqual([expect.stringMatching(/status of 422/)]);
    const reader = await signIn('read');
    await reader.page.getByRole('link', { name: 'Endpoints' }).click();
    await reader.page.locator(`article[data-iban="${hooked}"] svg[aria-label^="24 h:"]`).first().waitFor();
    expect(await reader.page.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
  });

  it('pages the endpoints of an organization with more accounts than one page', async () => {
    const many = await harness.createTenant('Many endpoints');
    const ibans: string[] = [];
    for (let i = 0; i < 12; i++) ibans.push(await harness.createAccount(many));
    const { page, errors } = await signIn('read', undefined, many.orgId);
    await page.getByRole('link', { name: 'Endpoints' }).click();
    await expect.poll(() => page.locator('article.card[data-iban]').count()).toBe(10);
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => page.locator('article.card[data-iban]').count()).toBe(2);
    const shown = await page
      .locator('article.card[data-iban]')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-iban')));
    expect(shown).toEqual([...ibans].sort().slice(10));
    await page.getByRole('link', { name: '← Previous' }).click();
    await expect.poll(() => page.locator('article.card[data-iban]').count()).toBe(10);
    expect(unexpected(errors)).toEqual([]);
  });

  it('signs out by revoking the session key, which then answers 401', async () => {
    const { page } = await signIn('read');
    const stored = await page.evaluate<string | null>("sessionStorage.getItem('herald.portal.session')");
    const key = (JSON.parse(stored ?? '{}') as { key?: string }).key ?? '';
    const events = () =>
      fetch(`${harness.runtime.baseUrl}/events`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await events()).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate<string | null>("sessionStorage.getItem('herald.portal.session')")).toBeNull();
    // Revoked at once; the gateway refuses it once its cached decision expires (60 s at most in AWS).
    await waitFor(async () => (await events()).status === 401, { timeoutMs: (CACHE_SECONDS + 5) * 1000 });
  });

  it('is usable by keyboard: Tab reaches the filters and the events, Enter opens one', async () => {
    const { page } = await signIn('read');
    await expect.poll(() => rows(page).count()).toBe(5);
    const reached: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<string>(
        "(document.activeElement?.getAttribute('name') ?? '') + '|' + (document.activeElement?.textContent ?? '')",
      );
      reached.push(focused);
      if (focused.startsWith(`|${CREDIT}`)) break;
    }
    expect(reached.map((r) => r.split('|')[0]).filter(Boolean)).toEqual(
      expect.arrayContaining(['webhook_status', 'type', 'account', 'since', 'until', 'per_page']),
    );
    expect(reached.at(-1)).toBe(`|${CREDIT}`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Attempts/ }).waitFor();
  });

  it('fills the receiver help, and reads at phone width and in dark mode', async () => {
    const { page } = await signIn('manage');
    await page.getByRole('link', { name: 'Receiver help' }).click();
    await page.getByRole('tab', { name: 'Python' }).click();
    expect(await page.getByRole('tabpanel').textContent()).toContain('wh.verify(request.get_data()');
    expect(await page.getByRole('tabpanel').textContent()).toContain(new URL(receiver.url).pathname);
    await page.getByRole('button', { name: 'Fill in my webhook token' }).click();
    await page.getByText('The snippets now contain your webhook token: keep them secret.').waitFor();
    expect(await page.getByRole('tabpanel').textContent()).toContain('Webhook("whsec_');
    await screenshot(page, 'help');

    const dark = await signIn('read', { colorScheme: 'dark' });
    await expect.poll(() => rows(dark.page).count()).toBe(5);
    await screenshot(dark.page, 'events-dark');
    const phone = await signIn('read', { width: 390, height: 844 });
    await expect.poll(() => rows(phone.page).count()).toBe(5);
    await screenshot(phone.page, 'events-phone');
    const overflow = await phone.page.evaluate<number>('document.documentElement.scrollWidth - innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
