/**
 * The events API end to end: the service routes (health, OpenAPI document, unknown routes and methods)
 * and invalid query parameters. They need no bulk of events.
 *
 * Each file of the events API end-to-end tests starts its own local runtime with the real handlers on the
 * real emulators, seeded by `test/support/events-api-fixture.ts`, and calls it over HTTP; every answer
 * is checked against the OpenAPI document the API serves (see `connectApi`), so these files are also the
 * OpenAPI conformance test.
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#http/openapi/document';
import { NOT_FOUND_PROBLEM } from '#http/problem/problem-types';
import type { ProblemBody } from '#http/problem/render';
import type { SeededTenant } from '#local/tenant-seed';
import { type ApiClient, expectProblem } from '../support/e2e-http';
import { DE, type Published, startEventsApiFixture } from '../support/events-api-fixture';
import { useFixture } from '../support/use-fixture';

let api: ApiClient;
let base: string;
let orgA: SeededTenant;
let okEvent: Published;

// These tests need none of the bulk: organizations, accounts and the delivered events are enough.
useFixture(
  () => startEventsApiFixture({ bulk: false }),
  (fixture) => {
    ({ api, base, orgA, okEvent } = fixture);
  },
);

describe('service routes', () => {
  it('GET /health answers 200 without a key', async () => {
    const response = await api.call('/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('GET /openapi.json is the OpenAPI 3.1 document with this deployment as its server', () => {
    const { documentResponse, document } = api;
    expect(documentResponse.status).toBe(200);
    expect(documentResponse.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: base }]);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/events', '/events/{id}']));
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(base))));
  });

  it('answers an unknown route with a 404 problem, before authentication', async () => {
    const paths = ['/', '/nope', '/events/x/y', `/events/${okEvent.id}/nope`, '/accounts/a/b', '/management'];
    for (const path of paths) {
      const problem = expectProblem(await api.call(path), 404);
      expect(problem).toMatchObject({ type: 'https://herald.dev/problems/not-found', title: 'Not found' });
      expect(problem.detail).toBe(NOT_FOUND_PROBLEM.detail);
    }
  });

  it('answers a known path with another method 405 and Allow', async () => {
    const cases: [method: string, path: string, allow: string][] = [
      ['DELETE', '/events', 'GET, POST'],
      ['DELETE', `/events/${okEvent.id}`, 'GET'],
      ['PUT', `/events/${okEvent.id}`, 'GET'],
      ['GET', `/events/${okEvent.id}/redeliver`, 'POST'],
      ['POST', '/health', 'GET'],
      ['PATCH', `/accounts/${DE}`, 'GET, PUT'],
      ['GET', '/webhook-token/rotate', 'POST'],
      ['PATCH', '/admin/organizations', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await api.call(path, { method, key: orgA.apiKey });
      const problem = expectProblem(response, 405);
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(problem).toMatchObject({ type: 'https://herald.dev/problems/method-not-allowed' });
    }
  });
});

describe('invalid parameters', () => {
  const PAGE = /integer of 1 or more/;
  const PER_PAGE = /integer from 1 to 100/;
  const TIME = /YYYY-MM-DD HH:MM:SS/;
  const cases: [query: string, name: string, reason: RegExp][] = [
    ['page=0', 'page', PAGE],
    ['page=-1', 'page', PAGE],
    ['page=abc', 'page', PAGE],
    ['page=1.5', 'page', PAGE],
    ['page=05', 'page', PAGE],
    ['page=1e1', 'page', PAGE],
    ['page=', 'page', PAGE],
    ['per_page=0', 'per_page', PER_PAGE],
    ['per_page=101', 'per_page', PER_PAGE],
    ['per_page=abc', 'per_page', PER_PAGE],
    ['per_page=1.5', 'per_page', PER_PAGE],
    ['per_page=-5', 'per_page', PER_PAGE],
    ['page=1&page=2', 'page', /more than once/],
    ['per_page=5&per_page=5', 'per_page', /more than once/],
    [
      'foo=1',
      'foo',
      /unknown parameter; allowed: page, per_page, account, type, webhook_status, since, until/,
    ],
    ['perPage=10', 'perPage', /unknown parameter/],
    ['account=DE89370400440532013001', 'account', /check digits/],
    ['account=hello', 'account', /IBAN/],
    ['account=DE8937040044053201300', 'account', /22 characters/],
    ['type=Credit-Transfer', 'type', /snake_case.*at most 64/],
    [`type=${'a'.repeat(65)}`, 'type', /at most 64/],
    ['webhook_status=done', 'webhook_status', /pending, success, failed, skipped/],
    ['webhook_status=SUCCESS', 'webhook_status', /pending, success, failed, skipped/],
    ['since=2026-01-15', 'since', TIME],
    ['since=2026-01-15T08:00:00', 'since', TIME],
    ['since=yesterday', 'since', TIME],
    ['until=2026-02-30%2000:00:00', 'until', TIME],
    ['until=2026-01-15%2024:00:00', 'until', TIME],
    ['until=2026-01-15%2010:00:00.500', 'until', TIME],
    ['since=2026-01-15%2010:00:00&until=2026-01-15%2009:59:59', 'until', /not be earlier than since/],
  ];

  it.each(cases)('?%s answers 400 naming %s and what is allowed', async (text, name, reason) => {
    const response = await api.call(`/events?${text}`, { key: orgA.apiKey });
    const problem = expectProblem(response, 400);
    expect(problem).toMatchObject({
      type: 'https://herald.dev/problems/invalid-parameter',
      title: 'Invalid parameter',
    });
    expect(problem.invalid_params).toEqual([{ name, reason: expect.stringMatching(reason) }]);
    expect(problem.detail).toContain(name);
    expect(problem.detail).toMatch(reason);
  });

  it('answers a malformed account IBAN in the path with 400', async () => {
    const problem: ProblemBody = expectProblem(
      await api.call('/accounts/DE00123', { key: orgA.apiKey }),
      400,
    );
    expect(problem.invalid_params?.[0]?.name).toBe('iban');
  });
});
