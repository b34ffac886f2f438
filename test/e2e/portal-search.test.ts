/**
 * The portal's events in headless Chromium: the id column and the search by id (a full id opens the
 * event; a prefix of at least 8 characters lists the matches among the newest events, in at most five
 * list requests however many events there are), the UTC time fields (the API's form, not the browser's
 * locale), and every table readable at 390 px without being cut off or scrolled sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { CREDIT, creditPayload, DEBIT, examplePayload, TRANSFER, transferPayload } from '../support/payloads';
import { launchBrowser, mintLink, openPage, rows, type WatchedPage } from '../support/portal-browser';
import { reply } from '../support/receiver';

const TIMEOUT_MS = 180_000;
/** More than one search reads (5 pages of 100), so the bound shows. */
const OLDER_EVENTS = 510;
let harness: DeliveryHarness;
const startReceiver = setupDeliveryFile(
  { label: 'e2e-portal-search', retrySchedule: fastSchedule(1, 2) },
  (h) => {
    harness = h;
  },
);

let browser: Browser;
let tenant: SeededTenant;
let delivered: string;
let newest: string;

async function signIn(options?: Parameters<typeof openPage>[1]): Promise<WatchedPage> {
  const watched = await openPage(browser, options);
  const { baseUrl, credentials } = harness.runtime;
  await watched.page.goto(await mintLink(baseUrl, credentials, tenant.orgId, 'read'));
  await watched.page.getByRole('heading', { name: 'Events' }).waitFor();
  return watched;
}

/** Searches `text` in the id field. */
async function find(page: Page, text: string): Promise<void> {
  await page.getByLabel('Event id').fill(text);
  await page.getByRole('button', { name: 'Find' }).click();
}

/** The `GET /events` requests the page makes from now on. */
function listRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/events') seen.push(request.url());
  });
  return seen;
}

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await harness.createTenant('Portal Search Org');
  const receiver = await startReceiver(() => reply.status(204));
  const hooked = await harness.createAccount(tenant, receiver.url);
  // Older events (skipped: no URL), published a day ago so the newer ones come first; over ten accounts,
  // as the listing is the organization's: one account's concurrent publishes would queue for its sequences.
  const unhooked = await Promise.all(Array.from({ length: 10 }, () => harness.createAccount(tenant)));
  const dayAgo = Date.now() - 86_400_000;
  for (let start = 0; start < OLDER_EVENTS; start += 30) {
    await Promise.all(
      Array.from({ length: Math.min(30, OLDER_EVENTS - start) }, (_, i) =>
        harness.publish({
          account: String(unhooked[(start + i) % unhooked.length]),
          type: CREDIT,
          payload: creditPayload({ entry_reference: `ref${start + i}` }),
          triggeredAt: new Date(dayAgo + start + i),
        }),
      ),
    );
  }
  delivered = (await harness.publish({ account: hooked, type: TRANSFER, payload: transferPayload() })).id;
  await harness.waitForEvent(tenant, delivered, 'success');
  newest = (
    await harness.publish({
      account: String(unhooked[0]),
      type: DEBIT,
      payload: examplePayload(DEBIT, 'returned_insufficient_funds'),
    })
  ).id;
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

describe('finding an event by id', { timeout: TIMEOUT_MS }, () => {
  it('shows each event’s id, a link to the event', async () => {
    const { page } = await signIn();
    const link = page.locator(`tr[data-id="${newest}"] td[data-label="Id"] a`);
    expect(await link.textContent()).toBe(newest);
    await link.click();
    await page.getByRole('heading', { name: /^Attempts/ }).waitFor();
  });

  it('opens the event of a full id with one request, and lists the matches of a prefix', async () => {
    const { page } = await signIn();
    await find(page, delivered.toUpperCase());
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/events/${delivered}`);

    await page.goto(`${harness.runtime.baseUrl}/portal#/events`);
    await expect.poll(() => rows(page).count()).toBe(10);
    // The first 8 characters are the time to about a minute: every event of that minute matches.
    await find(page, delivered.slice(0, 8));
    await page.getByText(/events? whose id starts with/).waitFor();
    expect(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toContain(
      delivered,
    );
    // 18 characters: the time to the millisecond and some random bits, so only this event matches.
    await find(page, delivered.slice(0, 18));
    await page.getByText(`1 event whose id starts with ${delivered.slice(0, 18)}`).waitFor();
    expect(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual([
      delivered,
    ]);
    expect(await page.getByLabel('Event id').inputValue()).toBe(delivered.slice(0, 18));
  });

  it('refuses fewer than 8 characters without asking the API', async () => {
    const { page } = await signIn();
    const before = page.url();
    const requests = listRequests(page);
    await find(page, delivered.slice(0, 7));
    expect(
      await page
        .getByLabel('Event id')
        .evaluate((input) => (input as unknown as { validationMessage: string }).validationMessage),
    ).toBe('Enter a full event id, or at least its first 8 characters.');
    expect(page.url()).toBe(before);
    expect(requests).toEqual([]);
  });

  it('reads at most five pages of 100 for a prefix, and says how far it looked', async () => {
    const { page } = await signIn();
    const requests = listRequests(page);
    await find(page, 'ffffffff');
    await page.getByText('No event whose id starts with ffffffff among the newest 500 events').waitFor();
    expect(requests.map((url) => new URL(url).searchParams.get('page'))).toEqual(['1', '2', '3', '4', '5']);
    expect(requests.every((url) => new URL(url).searchParams.get('per_page') === '100')).toBe(true);
    await page.getByText('Narrow Since and Until to the time around it, or enter the full id.').waitFor();
  });
});

describe('UTC time fields', { timeout: TIMEOUT_MS }, () => {
  it('show and take the API’s YYYY-MM-DD HH:MM:SS, not the browser’s locale format', async () => {
    const { page } = await signIn();
    const since = page.getByLabel('Since (UTC)');
    expect(await since.getAttribute('type')).toBe('text');
    expect(await since.getAttribute('placeholder')).toBe('YYYY-MM-DD HH:MM:SS');
    await since.fill('2026-11-21 10:00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).hash).toContain('since=2026-11-21+10%3A00%3A00');
    await expect.poll(() => page.getByLabel('Since (UTC)').inputValue()).toBe('2026-11-21 10:00:00');

    const before = page.url();
    await page.getByLabel('Until (UTC)').fill('11/21/2026');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(
      await page
        .getByLabel('Until (UTC)')
        .evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    ).toBe(false);
    expect(page.url()).toBe(before);
  });
});

describe('at phone width (390 px)', { timeout: TIMEOUT_MS }, () => {
  /** Horizontal overflow of the page and of every scroll box (0 when everything fits). */
  const overflow = (page: Page) =>
    page.evaluate<number>(`Math.max(
      document.documentElement.scrollWidth - innerWidth,
      ...[...document.querySelectorAll('.scroll')].map((box) => box.scrollWidth - box.clientWidth),
    )`);

  it('shows the events and an event’s attempts as labelled cards, nothing cut off', async () => {
    const { page } = await signIn({ width: 390, height: 844 });
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const account = page.locator(`tr[data-id="${newest}"] td[data-label="Account"]`);
    const label = `getComputedStyle(document.querySelector('tr[data-id="${newest}"] td[data-label="Account"]'), '::before').content`;
    expect(await page.evaluate<string>(label)).toBe('"Account"');
    const box = await account.boundingBox();
    expect((box?.x ?? -1) + (box?.width ?? 999)).toBeLessThanOrEqual(390);

    await page.goto(`${harness.runtime.baseUrl}/portal#/events/${delivered}`);
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });
});
