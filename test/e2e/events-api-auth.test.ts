/**
 * The events API end to end: authentication, the separation of organizations, and the accounts routes.
 *
 * Each file of the events API end-to-end tests starts its own local runtime with the real handlers on the
 * real emulators, seeded by `test/support/events-api-fixture.ts`, and calls it over HTTP; every answer
 * is checked against the OpenAPI document the API serves (see `connectApi`), so these files are also the
 * OpenAPI conformance test.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HEALTHY } from '#delivery/endpoint-health-port';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import { toEndpointHealthView } from '#http/accounts/account-view';
import { toEndpointSecurityView } from '#http/accounts/endpoint-security-view';
import type { SeededTenant } from '#local/tenant-seed';
import { type ApiClient, expectProblem } from '../support/e2e-http';
import {
  BE,
  DE,
  type EventsApiFixture,
  FR,
  GB,
  NL,
  type Published,
  startEventsApiFixture,
  UNREGISTERED,
} from '../support/events-api-fixture';
import type { AccountView, EventSummary } from '../support/events-api-listing';
import { useFixture } from '../support/use-fixture';

let api: ApiClient;
let base: string;
let orgA: SeededTenant;
let orgB: SeededTenant;
let eventsA: readonly Published[];
let eventsB: readonly Published[];
let okEvent: Published;
let receiverUrl: string;
let expectedIds: EventsApiFixture['expectedIds'];

useFixture(
  () => startEventsApiFixture({ bulk: true }),
  (fixture) => {
    ({ api, base, orgA, orgB, eventsA, eventsB, okEvent, receiverUrl, expectedIds } = fixture);
  },
);

describe('authentication', () => {
  const unknownKey = `herald_${'A'.repeat(43)}`;

  it('answers 401 with WWW-Authenticate: Bearer for a missing, unknown, empty or non-Bearer key', async () => {
    const authorizations: (string | undefined)[] = [
      undefined,
      `Bearer ${unknownKey}`,
      'Bearer not-a-key',
      'Bearer',
      'Bearer    ',
      `Basic ${Buffer.from(`user:${orgA.apiKey}`).toString('base64')}`,
      `Basic ${orgA.apiKey}`,
      `Token ${orgA.apiKey}`,
      orgA.apiKey,
      `Bearer ${orgA.apiKey} ${orgA.apiKey}`,
    ];
    const paths = [
      '/events',
      '/events?page=0',
      `/events/${okEvent.id}`,
      `/events/${randomUUID()}`,
      '/events/not-an-id',
      '/accounts',
      `/accounts/${DE}`,
    ];
    for (const authorization of authorizations) {
      for (const path of paths) {
        const response = await api.call(
          path,
          authorization === undefined ? {} : { authorization: authorization },
        );
        const problem = expectProblem(response, 401);
        expect(response.headers.get('www-authenticate'), `${authorization} ${path}`).toBe('Bearer');
        expect(problem).toMatchObject({
          type: 'https://herald.dev/problems/unauthorized',
          title: 'Unauthorized',
        });
        expect(response.text).not.toContain(orgA.apiKey);
      }
    }
  });

  it('accepts the one spelling "Bearer <key>" only (one authorizer cache entry per key)', async () => {
    for (const authorization of [`bearer ${orgA.apiKey}`, `BEARER ${orgA.apiKey}`]) {
      expectProblem(await api.call('/events?per_page=1', { authorization }), 401);
    }
    expect((await api.call('/events?per_page=1', { key: orgA.apiKey })).status).toBe(200);
  });

  it("answers another organization's event exactly like an unknown one", async () => {
    const unknown = randomUUID();
    const foreign = expectProblem(await api.call(`/events/${okEvent.id}`, { key: orgB.apiKey }), 404);
    const missing = expectProblem(await api.call(`/events/${unknown}`, { key: orgB.apiKey }), 404);
    expect({ ...foreign, instance: '', detail: foreign.detail.replace(okEvent.id, 'ID') }).toEqual({
      ...missing,
      instance: '',
      detail: missing.detail.replace(unknown, 'ID'),
    });
    expect(foreign).toMatchObject({ type: 'https://herald.dev/problems/not-found', title: 'Not found' });
    // And the other way round.
    const bEvent = eventsB[0]?.id ?? '';
    expectProblem(await api.call(`/events/${bEvent}`, { key: orgA.apiKey }), 404);
  });

  it("lists only the organization's own events, whatever the filter", async () => {
    const listB = await api.call('/events?per_page=100', { key: orgB.apiKey });
    expect(listB.status).toBe(200);
    expect((listB.body as EventSummary[]).map((event) => event.id)).toEqual(expectedIds(eventsB));
    for (const [key, iban] of [
      [orgB.apiKey, DE],
      [orgB.apiKey, FR],
      [orgA.apiKey, NL],
    ] as const) {
      const response = await api.call(`/events?account=${iban}`, { key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    }
    const listA = await api.call(
      '/events?per_page=100&since=2026-01-15%2008:00:00&until=2026-01-16%2000:00:00',
      {
        key: orgA.apiKey,
      },
    );
    const idsA = (listA.body as EventSummary[]).map((event) => event.id);
    for (const event of eventsB) expect(idsA).not.toContain(event.id);
  });

  it("answers another organization's account exactly like an unknown one", async () => {
    const accountsB = await api.call('/accounts', { key: orgB.apiKey });
    expect(accountsB.status).toBe(200);
    expect((accountsB.body as AccountView[]).map((account) => account.iban)).toEqual([NL]);
    const foreign = expectProblem(await api.call(`/accounts/${DE}`, { key: orgB.apiKey }), 404);
    const unknown = expectProblem(await api.call(`/accounts/${UNREGISTERED}`, { key: orgB.apiKey }), 404);
    expect({ ...foreign, instance: '', detail: foreign.detail.replace(DE, 'IBAN') }).toEqual({
      ...unknown,
      instance: '',
      detail: unknown.detail.replace(UNREGISTERED, 'IBAN'),
    });
    expectProblem(await api.call(`/accounts/${NL}`, { key: orgA.apiKey }), 404);
  });
});

describe('accounts', () => {
  it("lists the organization's accounts by IBAN with their webhook URLs", async () => {
    const response = await api.call('/accounts', { key: orgA.apiKey });
    expect(response.status).toBe(200);
    // The receiver's /fail path answers 500, so that endpoint is degraded by now; the others never failed.
    // How many attempts failed by now depends on the machine's speed: after five in a row the circuit
    // opens, and the reason says so instead of the last answer.
    const failing = expect.objectContaining({
      state: 'degraded',
      reason: expect.stringMatching(/^(failing: answered 500|circuit open: \d+ consecutive failures)$/),
    });
    const view = (iban: string, webhookUrl: string | null): AccountView => ({
      iban,
      webhook_url: webhookUrl,
      endpoint_id: expect.stringMatching(ENDPOINT_ID_PATTERN),
      delivery_order: 'concurrent',
      webhook_health: webhookUrl?.endsWith('/fail') ? failing : toEndpointHealthView(HEALTHY),
      ...toEndpointSecurityView(undefined),
      _links: { self: `${base}/accounts/${iban}`, events: `${base}/events?account=${iban}` },
    });
    expect(response.body).toEqual([
      view(BE, `${receiverUrl}/fail`),
      view(DE, null),
      view(FR, `${receiverUrl}/ok`),
      view(GB, null),
    ]);
    expect(response.headers.get('link')).toBe(`<${base}/accounts?page=1&per_page=10>; rel="first"`);
  });

  it('shows one account, given in any case and spacing, and its events link works', async () => {
    const response = await api.call(`/accounts/${encodeURIComponent('de89 3704 0044 0532 0130 00')}`, {
      key: orgA.apiKey,
    });
    expect(response.status).toBe(200);
    const account = response.body as AccountView;
    expect(account.iban).toBe(DE);
    const events = await api.call(account._links.events, { key: orgA.apiKey });
    expect(events.status, events.text).toBe(200);
    expect((events.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, { account: DE }).slice(0, 10),
    );
    // An event's account link leads to this account.
    const first = (events.body as EventSummary[])[0];
    expect(first?._links.account).toBe(`${base}/accounts/${DE}`);
    expect((await api.call(first?._links.account ?? '', { key: orgA.apiKey })).body).toEqual(account);
  });
});
