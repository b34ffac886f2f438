/**
 * The events API end to end: the fields of listed and shown events, their signatures and timestamps,
 * and the deliveries recorded for them.
 *
 * Each file of the events API end-to-end tests starts its own local runtime with the real handlers on the
 * real emulators, seeded by `test/support/events-api-fixture.ts`, and calls it over HTTP; every answer
 * is checked against the OpenAPI document the API serves (see `connectApi`), so these files are also the
 * OpenAPI conformance test.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookBody } from '#domain/webhook-body';
import type { SeededTenant } from '#local/tenant-seed';
import { type ApiClient, expectProblem } from '../support/e2e-http';
import {
  type EventsApiFixture,
  GB,
  MS_EVENTS,
  type Published,
  RAW,
  type Received,
  RICH_PAYLOAD,
  startEventsApiFixture,
} from '../support/events-api-fixture';
import {
  DETAIL_KEYS,
  type EventDetail,
  rendered,
  SUMMARY_KEYS,
  TIMESTAMP,
} from '../support/events-api-listing';
import { useFixture } from '../support/use-fixture';

let api: ApiClient;
let base: string;
let orgA: SeededTenant;
let eventsA: readonly Published[];
let okEvent: Published;
let pendingEvent: Published;
let failedEvent: Published;
let richEvent: Published;
let received: readonly Received[];
let walk: EventsApiFixture['walk'];
let statusOf: EventsApiFixture['statusOf'];

useFixture(
  () => startEventsApiFixture({ bulk: true }),
  (fixture) => {
    ({ api, base, orgA, eventsA, okEvent, pendingEvent, failedEvent, richEvent, received, walk, statusOf } =
      fixture);
  },
);

describe('event fields', () => {
  it('lists exactly the summary fields, each matching what was published', async () => {
    const byId = new Map(eventsA.map((event) => [event.id, event]));
    const { events } = await walk('/events?per_page=100', orgA.apiKey, 100, {});
    expect(events).toHaveLength(eventsA.length);
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(SUMMARY_KEYS);
      expect(Object.keys(event._links).sort()).toEqual(['account', 'self']);
      const published = byId.get(event.id);
      if (published === undefined) throw new Error(`unexpected event ${event.id}`);
      expect(event.triggered_at).toMatch(TIMESTAMP);
      expect(event).toMatchObject({
        account: published.account,
        type: published.type,
        // The version its payload passed; none for the type outside the catalog a transition accepted.
        type_version: published.type === RAW ? null : 1,
        triggered_at: rendered(published.triggeredAt),
        webhook_status: statusOf(published),
        _links: { self: `${base}/events/${event.id}`, account: `${base}/accounts/${published.account}` },
      });
      // Nothing is signed at publish; an attempt leaves its X-Signature on the event.
      expect(published.signature).toBeNull();
      if (statusOf(published) === 'skipped') {
        expect(event.webhook_retries).toBe(0);
        expect(event.signature).toBeNull();
      } else {
        expect(event.webhook_retries).toBeGreaterThanOrEqual(1);
        expect(event.signature).toMatch(/^t=\d+,sha256=[0-9a-f]{64}$/);
      }
    }
  });

  it('shows one event with exactly the detail fields and the payload byte for byte', async () => {
    const response = await api.call(`/events/${richEvent.id}`, { key: orgA.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const event = response.body as EventDetail;
    expect(Object.keys(event).sort()).toEqual(DETAIL_KEYS);
    expect(event).toEqual({
      id: richEvent.id,
      signature: null,
      account: GB,
      sequence: expect.any(Number),
      type: RAW,
      type_version: null,
      triggered_at: '2026-02-01 00:00:00',
      payload: RICH_PAYLOAD,
      webhook_status: 'skipped',
      webhook_retries: 0,
      next_attempt_at: null,
      webhook_deliveries: [],
      // Its account's default endpoint, which has no URL: skipped there, with no attempt.
      endpoints: [
        {
          endpoint_id: expect.stringMatching(/^ep_[0-9a-f]{12}$/),
          webhook_status: 'skipped',
          webhook_retries: 0,
          next_attempt_at: null,
        },
      ],
      _links: { self: `${base}/events/${richEvent.id}`, account: `${base}/accounts/${GB}` },
    });
    // Same keys in the same order, same escapes: the payload text is the one that was published.
    expect(JSON.stringify(event.payload)).toBe(JSON.stringify(RICH_PAYLOAD));
  });

  it('shows the latest attempt’s X-Signature: over the exact webhook body, with the organization token', async () => {
    for (const published of [okEvent, pendingEvent]) {
      const event = (await api.call(`/events/${published.id}`, { key: orgA.apiKey })).body as EventDetail;
      const body = webhookBody({
        id: published.id,
        type: published.type,
        typeVersion: 1,
        account: published.account,
        sequence: event.sequence ?? 0,
        triggeredAt: published.triggeredAt,
        payloadJson: JSON.stringify(published.payload),
        baseUrl: base,
      });
      // Recomputed with node:crypto, not the signer's code.
      const t = /^t=(\d+),/.exec(event.signature ?? '')?.[1];
      const key = Buffer.from(orgA.webhookToken.slice('whsec_'.length), 'base64');
      const mac = createHmac('sha256', key).update(`${t}.${body}`).digest('hex');
      expect(event.signature).toBe(`t=${t},sha256=${mac}`);
      const tokenId = `whk_${createHash('sha256').update(orgA.webhookToken).digest('hex').slice(0, 16)}`;
      expect(event.webhook_deliveries.at(-1)?.signing_keys).toEqual([tokenId]);
    }
  });

  it('renders triggered_at in UTC with the fraction cut, also for a time given with an offset', async () => {
    const cases: [iso: string, shown: string][] = [
      [MS_EVENTS.offset, '2026-03-02 10:00:05'],
      [MS_EVENTS.inside, '2026-03-02 10:00:05'],
      [MS_EVENTS.before, '2026-03-02 10:00:04'],
    ];
    for (const [iso, shown] of cases) {
      const published = eventsA.find((event) => event.payload.remittance_information === `at ${iso}`);
      if (published === undefined) throw new Error(`no event at ${iso}`);
      const event = (await api.call(`/events/${published.id}`, { key: orgA.apiKey })).body as EventDetail;
      expect(event.triggered_at).toBe(shown);
    }
  });

  it('records a 2xx delivery as success, with the attempt and the webhook the receiver got', async () => {
    const event = (await api.call(`/events/${okEvent.id}`, { key: orgA.apiKey })).body as EventDetail;
    expect(event.webhook_status).toBe('success');
    expect(event.webhook_deliveries.length).toBeGreaterThanOrEqual(1);
    expect(event.webhook_retries).toBe(event.webhook_deliveries.length);
    const last = event.webhook_deliveries.at(-1);
    expect(last).toEqual({
      delivery_at: expect.stringMatching(TIMESTAMP),
      response_body: 'thanks',
      response_status: 200,
      response_time: expect.any(Number),
      url: expect.stringMatching(/\/ok$/),
      signing_keys: [expect.stringMatching(/^whk_[0-9a-f]{16}$/)],
      endpoint_id: expect.stringMatching(/^ep_[0-9a-f]{12}$/),
    });
    expect(event.next_attempt_at).toBeNull();
    expect(Number.isInteger(last?.response_time)).toBe(true);
    expect((last?.delivery_at ?? '') >= event.triggered_at).toBe(true);

    const webhook = received.find((request) => request.path === '/ok');
    if (webhook === undefined) throw new Error('the receiver got no webhook');
    expect(webhook.headers['x-signature']).toBe(event.signature);
    expect(JSON.parse(webhook.body)).toEqual({
      id: event.id,
      type: event.type,
      type_version: event.type_version,
      account: event.account,
      sequence: event.sequence,
      triggered_at: event.triggered_at,
      payload: event.payload,
      _links: event._links,
    });
  });

  it('keeps a failing delivery pending with its attempts, and shows a settled one as failed', async () => {
    for (const [published, status] of [
      [pendingEvent, 'pending'],
      [failedEvent, 'failed'],
    ] as const) {
      const event = (await api.call(`/events/${published.id}`, { key: orgA.apiKey })).body as EventDetail;
      expect(event.webhook_status).toBe(status);
      // Only a pending event has a next attempt; the API says when.
      if (status === 'pending') expect(event.next_attempt_at).toMatch(TIMESTAMP);
      else expect(event.next_attempt_at).toBeNull();
      expect(event.webhook_deliveries.length).toBeGreaterThanOrEqual(1);
      expect(event.webhook_retries).toBe(event.webhook_deliveries.length);
      for (const delivery of event.webhook_deliveries) {
        expect(delivery).toMatchObject({ response_status: 500, response_body: 'nope' });
        expect(delivery.delivery_at).toMatch(TIMESTAMP);
      }
    }
  });

  it('answers a malformed event id with 400 naming id, and an unknown one with 404', async () => {
    for (const id of ['not-an-id', okEvent.id.toUpperCase(), `{${okEvent.id}}`, '123', `${okEvent.id}x`]) {
      const problem = expectProblem(
        await api.call(`/events/${encodeURIComponent(id)}`, { key: orgA.apiKey }),
        400,
      );
      expect(problem.invalid_params).toEqual([{ name: 'id', reason: expect.stringMatching(/UUID/) }]);
    }
    const missing = expectProblem(await api.call(`/events/${randomUUID()}`, { key: orgA.apiKey }), 404);
    expect(missing.title).toBe('Not found');
  });
});
