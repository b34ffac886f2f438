/**
 * Chromium for the portal's browser tests: `@sparticuz/chromium` ships the binary inside the npm package
 * (no download, no apt) and `playwright-core` drives it. Every page records the console errors and
 * failed requests it saw, so a CSP violation or a broken call fails the test that caused it.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import { type Browser, type Locator, type Page, chromium as playwright } from 'playwright-core';
import { expect } from 'vitest';
import type { AwsKey } from '#cli/target';
import { sigv4Headers } from './e2e-http';

/**
 * Where screenshots go: `PORTAL_SCREENSHOTS` (`docs/screenshots` when refreshing them),
 * otherwise a temporary folder, so a test run leaves the work tree clean.
 */
export const SCREENSHOT_DIR = process.env.PORTAL_SCREENSHOTS ?? join(tmpdir(), 'herald-portal-screenshots');

/** A page plus what went wrong on it. */
export interface WatchedPage {
  readonly page: Page;
  /** Console errors (CSP violations are reported there) and uncaught page errors. */
  readonly errors: string[];
}

/** Launches headless Chromium. */
export async function launchBrowser(): Promise<Browser> {
  return playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
  });
}

/** A page in a fresh context (own sessionStorage), 1280 px wide unless told otherwise. */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** Writes a full-page screenshot `<name>.png` to {@link SCREENSHOT_DIR}. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** A portal link minted through the admin route, SigV4-signed with the local operator's credentials. */
export async function mintLink(
  baseUrl: string,
  operator: AwsKey,
  orgId: string,
  scope: 'read' | 'manage',
): Promise<string> {
  const url = new URL(`${baseUrl}/admin/organizations/${orgId}/portal-links`);
  const body = JSON.stringify({ scope, ttl_minutes: 10 });
  const headers = await sigv4Headers(operator, 'POST', url, { 'content-type': 'application/json' }, body);
  const response = await fetch(url, { method: 'POST', headers, body });
  expect(response.status).toBe(201);
  return ((await response.json()) as { url: string }).url;
}

/** Where and as whom a test signs in: the API's base URL, the operator who mints the link, the organization. */
export interface SignInAt {
  readonly baseUrl: string;
  readonly operator: AwsKey;
  readonly orgId: string;
}

/** A fresh page signed in through a new portal link of `scope`, on the Events page it opens on. */
export async function signedIn(
  browser: Browser,
  at: SignInAt,
  scope: 'read' | 'manage',
  options?: Parameters<typeof openPage>[1],
): Promise<WatchedPage> {
  const watched = await openPage(browser, options);
  await watched.page.goto(await mintLink(at.baseUrl, at.operator, at.orgId, scope));
  await watched.page.getByRole('heading', { name: 'Events' }).waitFor();
  return watched;
}

/** The rows of the events list. */
export const rows = (page: Page): Locator => page.locator('table.events tbody tr');

/** Console errors other than the failed loads a test provoked on purpose (401s). */
export const unexpected = (errors: readonly string[]): string[] =>
  errors.filter((e) => !/status of 401/.test(e));
