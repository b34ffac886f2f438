import { describe, expect, it } from 'vitest';
import { ANSWER_BODY_MAX_BYTES } from '#config/limits';
import type { Account, EventRecord } from '#domain/model';
import { eventLinks, webhookBody } from '#domain/webhook-body';
import { toAccountView } from '#http/accounts/account-view';
import { carriedBytes } from '#http/answer-size';
import { toDeliveryView, toEventDetail, toEventSummary, toEventView } from '#http/events/event-view';

const base = 'https://api.example.com/v1';
const payloadJson = '{"transfer_id":"t-1","amount":{"value":"12.50"},"note":"Grüße \\u2028"}';
const body = webhookBody({
  id: '0190f4e8-3c1a-7b2e-9f00-123456789abc',
  type: 'credit_transfer_status_change',
  typeVersion: 1,
  account: 'DE89370400440532013000',
  sequence: 7,
  triggeredAt: '2026-11-21T12:34:56.789Z',
  payloadJson,
  baseUrl: base,
});
const record: EventRecord = {
  id: '0190f4e8-3c1a-7b2e-9f00-123456789abc',
  orgId: 'org-1',
  account: 'DE89370400440532013000',
  sequence: 7,
  type: 'credit_transfer_status_change',
  typeVersion: 1,
  triggeredAt: '2026-11-21T12:34:56.789Z',
  body,
  signature: 'sha256=abc',
  webhookStatus: 'success',
  webhookRetries: 2,
  cycleBase: 0,
  cycles: 1,
  deliveries: [
    {
      deliveredAt: '2026-11-21T12:34:57.100Z',
      responseStatus: 503,
      responseBody: 'busy',
      responseTimeMs: 120,
    },
    {
      deliveredAt: '2026-11-21T12:35:07.900Z',
      responseStatus: 200,
      responseBody: '',
      responseTimeMs: 35,
      url: 'https://hooks.example.com/herald',
      signingKeys: ['whk_0123456789abcdef'],
    },
  ],
};
const links = {
  self: 'https://api.example.com/v1/events/0190f4e8-3c1a-7b2e-9f00-123456789abc',
  account: 'https://api.example.com/v1/accounts/DE89370400440532013000',
};

describe('eventLinks', () => {
  it('links the event and its account, whatever the trailing slash of the base', () => {
    expect(eventLinks(base, record)).toEqual(links);
    expect(eventLinks(`${base}/`, record)).toEqual(links);
  });
});

describe('toEventSummary', () => {
  it('has exactly the list fields, in order', () => {
    const view = toEventSummary(record, base);
    expect(Object.keys(view)).toEqual([
      'id',
      'signature',
      'account',
      'sequence',
      'type',
      'type_version',
      'triggered_at',
      'webhook_status',
      'webhook_retries',
      '_links',
    ]);
    expect(view).toEqual({
      id: record.id,
      signature: 'sha256=abc',
      sequence: 7,
      account: 'DE89370400440532013000',
      type: 'credit_transfer_status_change',
      type_version: 1,
      triggered_at: '2026-11-21 12:34:56',
      webhook_status: 'success',
      webhook_retries: 2,
      _links: links,
    });
  });
});

describe('toEventDetail', () => {
  it('adds the payload from the stored body and the attempts, oldest first', () => {
    const view = toEventDetail(record, base);
    expect(Object.keys(view)).toEqual([
      'id',
      'signature',
      'account',
      'sequence',
      'type',
      'type_version',
      'triggered_at',
      'payload',
      'webhook_status',
      'webhook_retries',
      'next_attempt_at',
      'webhook_deliveries',
      '_links',
    ]);
    expect(view.payload).toEqual(JSON.parse(payloadJson));
    expect(view.next_attempt_at).toBeNull();
    expect(view.webhook_deliveries).toEqual([
      // Recorded before URLs and signing keys were kept.
      {
        delivery_at: '2026-11-21 12:34:57',
        response_body: 'busy',
        response_status: 503,
        response_time: 120,
        url: null,
        signing_keys: [],
      },
      {
        delivery_at: '2026-11-21 12:35:07',
        response_body: '',
        response_status: 200,
        response_time: 35,
        url: 'https://hooks.example.com/herald',
        signing_keys: ['whk_0123456789abcdef'],
      },
    ]);
    expect(Object.keys(view.webhook_deliveries[0] ?? {})).toEqual([
      'delivery_at',
      'response_body',
      'response_status',
      'response_time',
      'url',
      'signing_keys',
    ]);
  });

  it('shows when a pending event’s next attempt is due, and no signature before its first attempt', () => {
    const next = Date.parse('2026-11-21T12:40:00.500Z');
    const pending = { ...record, webhookStatus: 'pending' as const, nextAttemptAt: next };
    expect(toEventDetail(pending, base).next_attempt_at).toBe('2026-11-21 12:40:00');
    // A settled event has no next attempt, whatever is stored.
    expect(toEventDetail({ ...pending, webhookStatus: 'failed' }, base).next_attempt_at).toBeNull();
    const unsent = { ...pending, signature: undefined, webhookRetries: 0, deliveries: [] };
    expect(toEventDetail(unsent, base).signature).toBeNull();
    expect(toEventSummary(unsent, base).signature).toBeNull();
  });

  it('shows type_version null for an event without one (stored before the catalog, or accepted outside it)', () => {
    const unversioned = { ...record, typeVersion: undefined };
    expect(toEventDetail(unversioned, base).type_version).toBeNull();
    expect(toEventSummary(unversioned, base).type_version).toBeNull();
  });

  it('shows an empty attempt list for an undelivered event', () => {
    const view = toEventDetail(
      { ...record, webhookStatus: 'skipped', webhookRetries: 0, deliveries: [] },
      base,
    );
    expect(view.webhook_deliveries).toEqual([]);
    expect(view.webhook_retries).toBe(0);
  });
});

describe('webhookBody', () => {
  it('embeds the payload text verbatim in the documented field order', () => {
    expect(body).toBe(
      '{"id":"0190f4e8-3c1a-7b2e-9f00-123456789abc","type":"credit_transfer_status_change","type_version":1,' +
        '"account":"DE89370400440532013000","sequence":7,"triggered_at":"2026-11-21 12:34:56",' +
        `"payload":${payloadJson},"_links":${JSON.stringify(links)}}`,
    );
    expect(Object.keys(JSON.parse(body) as object)).toEqual([
      'id',
      'type',
      'type_version',
      'account',
      'sequence',
      'triggered_at',
      'payload',
      '_links',
    ]);
  });

  it('leaves type_version out of an event without one, as bodies stored before the catalog have none', () => {
    const text = webhookBody({ ...record, typeVersion: undefined, sequence: 7, payloadJson, baseUrl: base });
    expect(text).toBe(body.replace('"type_version":1,', ''));
  });

  it('keeps payload bytes that a re-serialisation would change', () => {
    const spaced = '{ "b": 1.0, "a": [ 1e2 ] }';
    const text = webhookBody({ ...record, sequence: 7, payloadJson: spaced, baseUrl: base });
    expect(text).toContain(`"payload":${spaced},`);
    expect(JSON.parse(text)).toMatchObject({ payload: { a: [100], b: 1 } });
  });

  it('escapes strings in the envelope', () => {
    const text = webhookBody({ ...record, sequence: 7, type: 'a"b', payloadJson: '{}', baseUrl: base });
    expect(JSON.parse(text)).toMatchObject({ type: 'a"b' });
  });

  it.each(['[]', 'null', '"x"', '{', ''])('refuses payload text %j', (text) => {
    expect(() => webhookBody({ ...record, sequence: 7, payloadJson: text, baseUrl: base })).toThrow();
  });
});

describe('toAccountView', () => {
  const account: Account = {
    iban: 'DE89370400440532013000',
    orgId: 'org-1',
    webhookUrl: 'https://hooks.example.com/herald',
    endpointId: 'ep_5f0c2a9be417',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };

  it('shows the URL, the endpoint id and links to the account and its events', () => {
    expect(toAccountView(account, base, { fullUrl: true })).toEqual({
      iban: 'DE89370400440532013000',
      webhook_url: 'https://hooks.example.com/herald',
      endpoint_id: 'ep_5f0c2a9be417',
      delivery_order: 'concurrent',
      payload_encryption: null,
      tls_client_certificate: null,
      tls_ca_certificate: null,
      webhook_health: {
        state: 'healthy',
        since: null,
        reason: null,
        consecutive_failures: 0,
        failing_since: null,
        recovered_at: null,
        last_success_at: null,
        last_failure_at: null,
        recent_latency_ms: null,
        circuit_open_until: null,
      },
      _links: {
        self: 'https://api.example.com/v1/accounts/DE89370400440532013000',
        events: 'https://api.example.com/v1/events?account=DE89370400440532013000',
      },
    });
  });

  it('shows null without a URL, and without an endpoint id (an account from before ids)', () => {
    expect(
      toAccountView({ ...account, webhookUrl: undefined }, base, { fullUrl: false }).webhook_url,
    ).toBeNull();
    expect(
      toAccountView({ ...account, endpointId: undefined }, base, { fullUrl: true }).endpoint_id,
    ).toBeNull();
  });

  it("masks the URL's query values unless the audience sees it whole (manage keys, operators)", () => {
    const withToken = { ...account, webhookUrl: 'https://hooks.example.com/herald?token=s3cret&v=2' };
    expect(toAccountView(withToken, base, { fullUrl: true }).webhook_url).toBe(withToken.webhookUrl);
    expect(toAccountView(withToken, base, { fullUrl: false }).webhook_url).toBe(
      'https://hooks.example.com/herald?token=***&v=***',
    );
    expect(toAccountView(account, base, { fullUrl: false }).webhook_url).toBe(account.webhookUrl);
  });
});

describe('toDeliveryView', () => {
  it('masks the query values of an attempt stored with its URL whole (before they were masked)', () => {
    const attempt = {
      deliveredAt: '2026-11-01T00:00:00.000Z',
      responseStatus: 200,
      responseBody: 'ok',
      responseTimeMs: 5,
      url: 'https://hooks.example.com/herald?token=s3cret',
    };
    expect(toDeliveryView(attempt).url).toBe('https://hooks.example.com/herald?token=***');
    expect(toDeliveryView({ ...attempt, url: 'https://hooks.example.com/herald?token=***' }).url).toBe(
      'https://hooks.example.com/herald?token=***',
    );
    expect(toDeliveryView({ ...attempt, url: undefined }).url).toBeNull();
  });
});

describe('toEventView', () => {
  const sent = (second: number, endpointId: string | undefined) => ({
    deliveredAt: `2026-11-21T12:35:${String(second).padStart(2, '0')}.000Z`,
    responseStatus: 500,
    responseBody: 'x'.repeat(4096),
    responseTimeMs: 5,
    url: 'https://books.example.com/h?token=s3cret',
    signingKeys: [],
    endpointId,
  });

  it("names each attempt's endpoint (its URL masked) and renders each endpoint's part", () => {
    const view = toEventView(
      {
        event: {
          ...record,
          webhookStatus: 'pending',
          webhookRetries: 2,
          nextAttemptAt: Date.parse('2026-11-21T12:40:00Z'),
        },
        endpoints: [
          {
            endpointId: 'ep_0000000000b1',
            status: 'pending',
            retries: 1,
            nextAttemptAt: Date.parse('2026-11-21T12:40:00Z'),
          },
          { endpointId: undefined, status: 'success', retries: 1 },
        ],
        attempts: [sent(1, 'ep_0000000000b1'), sent(2, undefined)],
      },
      base,
    );
    expect(view.endpoints).toEqual([
      {
        endpoint_id: 'ep_0000000000b1',
        webhook_status: 'pending',
        webhook_retries: 1,
        next_attempt_at: '2026-11-21 12:40:00',
      },
      { endpoint_id: null, webhook_status: 'success', webhook_retries: 1, next_attempt_at: null },
    ]);
    expect(view.webhook_deliveries.map((a) => [a.endpoint_id, a.url])).toEqual([
      ['ep_0000000000b1', 'https://books.example.com/h?token=***'],
      [null, 'https://books.example.com/h?token=***'],
    ]);
    expect(view.webhook_retries).toBe(2);
    expect(view.next_attempt_at).toBe('2026-11-21 12:40:00');
  });

  it('keeps the answer within its size bound, leaving out the oldest attempts first', () => {
    const attempts = Array.from({ length: 2_000 }, (_, i) => sent(i % 60, 'ep_0000000000b1'));
    const view = toEventView(
      { event: { ...record, webhookRetries: attempts.length }, endpoints: [], attempts },
      base,
    );
    expect(carriedBytes(JSON.stringify(view))).toBeLessThanOrEqual(ANSWER_BODY_MAX_BYTES);
    expect(view.webhook_deliveries.length).toBeLessThan(attempts.length);
    expect(view.webhook_deliveries.length).toBeGreaterThan(1_000);
    // The newest kept, in order; the count still every attempt.
    expect(view.webhook_deliveries.at(-1)?.delivery_at).toBe('2026-11-21 12:35:19');
    expect(view.webhook_retries).toBe(2_000);
  });
});
