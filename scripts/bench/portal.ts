/**
 * First render of the portal's events list against the local runtime with 10,000 events in one
 * organization: from navigation to the rows on screen, in headless Chromium.
 */
import chromium from '@sparticuz/chromium';
import { chromium as playwright } from 'playwright-core';
import { createDocumentClient } from '#adapters/aws-clients';
import type { LocalEndpoints } from '#local/emulators';
import { startLocalRuntime } from '#local/runtime';
import { TenantSeeder } from '#local/tenant-seed';
import { seedDeliveredEvents } from './list-capacity';

const IBAN = 'DE89370400440532013000';

/** Milliseconds to the first rows of the events list, per page size: the cold first load and the median of warm ones. */
export async function measurePortalRender(
  endpoints: LocalEndpoints,
  events = 10_000,
  runs = 7,
): Promise<Record<string, { coldMs: number; medianWarmMs: number }>> {
  const runtime = await startLocalRuntime({ endpoints, prefix: `bench-portal-${Date.now().toString(36)}` });
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
  });
  try {
    const client = createDocumentClient();
    const org = await new TenantSeeder(client, runtime.tableName).tenant('Bench portal', [{ iban: IBAN }]);
    await seedDeliveredEvents(client, runtime.tableName, org.orgId, IBAN, events);
    const result: Record<string, { coldMs: number; medianWarmMs: number }> = {};
    // One context for all runs: @sparticuz/chromium runs single-process, where closing a context can end
    // the browser. Each run opens a new tab, whose sessionStorage is its own.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // The session a pasted API key leaves in sessionStorage, so the measurement starts at navigation.
    const session = JSON.stringify(JSON.stringify({ key: org.apiKey, scope: 'key' }));
    await context.addInitScript({
      content: `if (location.protocol === 'http:') sessionStorage.setItem('herald.portal.session', ${session});`,
    });
    for (const perPage of [10, 100]) {
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${runtime.baseUrl}/portal#/events?per_page=${perPage}`);
        await page
          .locator('table.events tbody tr')
          .nth(perPage - 1)
          .waitFor();
        times.push(performance.now() - started);
      }
      const [cold = 0, ...warm] = times;
      warm.sort((a, b) => a - b);
      result[`${events} events, per_page ${perPage}`] = {
        coldMs: Math.round(cold),
        medianWarmMs: Math.round(warm[Math.floor(warm.length / 2)] ?? 0),
      };
    }
    return result;
  } finally {
    await browser.close();
    await runtime.stop();
  }
}
