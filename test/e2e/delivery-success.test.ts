/**
 * Webhook delivery end to end, the paths that end in `success` or `skipped`: publish → table stream →
 * forwarder → queue → consumer → a real HTTP receiver, read back through the API.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { HERALD_VERSION } from '#config/version';
import { type DeliveryHarness, expectCountsConsistent, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule, scheduleMs } from '../support/delivery-queue-helpers';
import { DEBIT, examplePayload, TRANSFER, transferPayload } from '../support/payloads';
import { failTimes, type RecordedRequest, reply } from '../support/receiver';
import { sleep, waitFor } from '../support/wait';

/** Per test: generous, a retry cycle on a busy two-core machine can take a while. */
const TEST_TIMEOUT_MS = 90_000;
/** Waits of 1, 2 and 4 s: strictly growing, so growing gaps are observable despite polling jitter. */
const SCHEDULE = fastSchedule(1, 2, 4);
/** How much earlier than the scheduled wait a retry may arrive (timer and clock granularity). */
const EARLY_TOLERANCE_MS = 50;
/** How much shorter than the previous gap a gap may be and still count as non-decreasing. */
const GAP_JITTER_MS = 250;

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  {
    label: 'e2e-success',
    retrySchedule: SCHEDULE,
    env: { DELIVERY_TIMEOUT_MS: '5000' },
  },
  (started) => {
    harness = started;
  },
);

/**
 * `t=<webhook-timestamp>,sha256=<hex HMAC-SHA256 of "<t>.<body>">` computed here, independently of
 * Herald's signing module.
 */
function expectedSignature(webhookToken: string, request: RecordedRequest): string {
  const key = Buffer.from(webhookToken.slice('whsec_'.length), 'base64');
  const t = String(request.headers['webhook-timestamp']);
  const signed = Buffer.concat([Buffer.from(`${t}.`), request.rawBody]);
  return `t=${t},sha256=${createHmac('sha256', key).update(signed).digest('hex')}`;
}

function standardHeaders(request: RecordedRequest): Record<string, string> {
  return {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
}

const RENDERED_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe.concurrent('webhook delivery', { timeout: TEST_TIMEOUT_MS }, () => {
  it('delivers on the first try: signed headers, exact body, recorded answer', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(() => reply.status(200, 'received ✓ — danke'));
    const iban = await harness.createAccount(tenant, hook.url);
    const payload = transferPayload({ transfer_id: 'tr_1', remittance_information: 'Grüße, 10 €' });
    const published = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload,
    });
    expect(published).toMatchObject({ created: true, webhookStatus: 'pending' });

    const view = await harness.waitForEvent(tenant, published.id, 'success');
    expectCountsConsistent(view);
    expect(view.webhook_retries).toBe(1);
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    if (!request) throw new Error('no request');

    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(`Herald/${HERALD_VERSION}`);
    expect(request.headers['content-length']).toBe(String(request.rawBody.length));
    const signature = expectedSignature(tenant.webhookToken, request);
    expect(request.headers['x-signature']).toBe(signature);
    expect(view.signature).toBe(signature);
    // Nothing is signed at publish: each attempt signs itself.
    expect(published.signature).toBeNull();
    expect(request.headers['webhook-id']).toBe(published.id);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - request.at / 1000)).toBeLessThanOrEqual(2);
    const verified = new Webhook(tenant.webhookToken).verify(request.body, standardHeaders(request));

    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(verified).toEqual(body);
    expect(Object.keys(body)).toEqual([
      'id',
      'type',
      'type_version',
      'account',
      'sequence',
      'triggered_at',
      'payload',
      '_links',
    ]);
    expect(body).toEqual({
      id: published.id,
      type: TRANSFER,
      type_version: 1,
      account: iban,
      sequence: 1,
      triggered_at: `${published.triggeredAt.slice(0, 10)} ${published.triggeredAt.slice(11, 19)}`,
      payload,
      _links: {
        self: `${harness.runtime.baseUrl}/events/${published.id}`,
        account: `${harness.runtime.baseUrl}/accounts/${iban}`,
      },
    });
    expect(body.triggered_at).toMatch(RENDERED_TIME);

    expect(view).toMatchObject({ id: published.id, account: iban, payload, webhook_status: 'success' });
    const [attempt] = view.webhook_deliveries;
    expect(attempt).toMatchObject({
      response_status: 200,
      response_body: 'received ✓ — danke',
      url: hook.url,
      signing_keys: [expect.stringMatching(/^whk_[0-9a-f]{16}$/)],
    });
    expect(attempt?.delivery_at).toMatch(RENDERED_TIME);
    expect(Number.isInteger(attempt?.response_time)).toBe(true);
    expect(attempt?.response_time).toBeGreaterThanOrEqual(0);
  });

  it('retries after 3 failures with non-decreasing gaps and identical bytes, then succeeds', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(failTimes(3, reply.status(503, 'busy'), reply.status(204)));
    // Started by a message of its own rather than the table stream: DynamoDB Local sometimes reports a
    // trimmed shard, and the local stream link then replays the stream, which would add a duplicate
    // message (see the duplicate tests below for what a duplicate does to the gaps).
    const published = await harness.quietPendingEvent(tenant, hook.url, {
      type: DEBIT,
      payload: examplePayload(DEBIT, 'returned_insufficient_funds'),
    });
    await harness.sendMessage(published.id);

    const view = await harness.waitForEvent(tenant, published.id, 'success', { timeoutMs: 60_000 });
    expectCountsConsistent(view);
    expect(view.webhook_deliveries.map((d) => d.response_status)).toEqual([503, 503, 503, 204]);
    expect(view.webhook_deliveries.map((d) => d.response_body)).toEqual(['busy', 'busy', 'busy', '']);
    expect(hook.requests).toHaveLength(4);

    const waits = scheduleMs(SCHEDULE);
    const requests = hook.requests;
    const gaps = requests.slice(1).map((request, i) => request.at - (requests[i]?.at ?? 0));
    gaps.forEach((gap, i) => {
      expect(gap, `gap ${i + 1} of ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(
        (waits[i] ?? 0) - EARLY_TOLERANCE_MS,
      );
      if (i > 0) {
        expect(gap, `gap ${i + 1} of ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(
          (gaps[i - 1] ?? 0) - GAP_JITTER_MS,
        );
      }
    });

    const first = requests[0];
    if (!first) throw new Error('no request');
    const timestamps: number[] = [];
    for (const request of requests) {
      expect(request.rawBody.equals(first.rawBody)).toBe(true);
      // Signed per attempt: over this attempt's timestamp.
      expect(request.headers['x-signature']).toBe(expectedSignature(tenant.webhookToken, request));
      expect(request.headers['webhook-id']).toBe(published.id);
      new Webhook(tenant.webhookToken).verify(request.body, standardHeaders(request));
      const timestamp = Number(request.headers['webhook-timestamp']);
      // Each attempt carries its own time: within a second or two of its arrival.
      expect(Math.abs(timestamp - request.at / 1000)).toBeLessThanOrEqual(2);
      timestamps.push(timestamp);
    }
    // Attempts are at least a second apart, so their whole-second timestamps strictly increase.
    expect([...timestamps].sort((a, b) => a - b)).toEqual(timestamps);
    expect(new Set(timestamps).size).toBe(timestamps.length);
    // The event shows the latest attempt's X-Signature.
    expect(requests.at(-1)?.headers['x-signature']).toBe(view.signature);
  });

  it('stores at most 4 KiB of a long answer and its URL together, never cutting a character in two', async () => {
    const tenant = await harness.createTenant();
    // 2 ASCII bytes, then 3-byte characters: byte 4096 falls inside one of them.
    const long = `xx${'€'.repeat(2000)}`;
    const hook = await receiver(() => reply.status(200, long));
    const iban = await harness.createAccount(tenant, hook.url);
    const published = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_n1' }),
    });

    const view = await harness.waitForEvent(tenant, published.id, 'success');
    expectCountsConsistent(view);
    const stored = view.webhook_deliveries[0]?.response_body ?? '';
    const room = 4096 - Buffer.byteLength(hook.url, 'utf8');
    expect(Buffer.byteLength(stored, 'utf8')).toBeLessThanOrEqual(room);
    expect(stored).not.toContain('\uFFFD');
    expect(long.startsWith(stored)).toBe(true);
    expect(stored).toBe(`xx${'€'.repeat(Math.floor((room - 2) / 3))}`);
  });

  it('records an event of an account without webhook URL as skipped and sends nothing', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const iban = await harness.createAccount(tenant, hook.url);
    // One delivery first, while the account has its URL.
    const first = await harness.publish({ account: iban, type: TRANSFER, payload: transferPayload() });
    expectCountsConsistent(await harness.waitForEvent(tenant, first.id, 'success'));

    await harness.setWebhookUrl(tenant, iban, undefined);
    const skipped = await harness.publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_a1' }),
    });
    expect(skipped.webhookStatus).toBe('skipped');
    const noUrl = await harness.createAccount(tenant);
    const never = await harness.publish({ account: noUrl, type: TRANSFER, payload: transferPayload() });
    expect(never.webhookStatus).toBe('skipped');

    // Absence cannot be awaited: give the stream and the queue time to (wrongly) deliver.
    await sleep(3_000);
    for (const id of [skipped.id, never.id]) {
      const view = await harness.getEvent(tenant, id);
      expectCountsConsistent(view);
      expect(view).toMatchObject({ webhook_status: 'skipped', webhook_retries: 0, webhook_deliveries: [] });
    }
    expect(hook.requests).toHaveLength(1);
  });
});

describe('duplicate messages', { timeout: TEST_TIMEOUT_MS }, () => {
  it('makes no new attempt for a delivered event when its message or stream record comes again', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const iban = await harness.createAccount(tenant, hook.url);
    const published = await harness.publish({ account: iban, type: TRANSFER, payload: transferPayload() });
    const delivered = await harness.waitForEvent(tenant, published.id, 'success');
    expectCountsConsistent(delivered);
    await waitFor(() => harness.queueIsEmpty(), { what: 'the first message to be deleted' });

    await harness.sendMessage(published.id);
    await harness.forwardAgain(published.id);
    await waitFor(() => harness.queueIsEmpty(), { what: 'the duplicates to be consumed' });
    expect(await harness.queueIsEmpty(harness.runtime.dlqUrl)).toBe(true);

    const view = await harness.getEvent(tenant, published.id);
    expectCountsConsistent(view);
    expect(view).toMatchObject({ webhook_status: 'success', webhook_retries: 1 });
    expect(hook.requests).toHaveLength(1);
  });

  it('does not bring the next attempt forward when a duplicate message arrives after an attempt', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(failTimes(3));
    const { id } = await harness.quietPendingEvent(tenant, hook.url);
    await harness.sendMessage(id);
    await waitFor(async () => (await harness.getEvent(tenant, id)).webhook_retries === 1, {
      what: 'the first attempt to be recorded',
    });
    // SQS delivers at least once: a second copy of the message shows up while the retry waits.
    await harness.sendMessage(id);

    const view = await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    await waitFor(() => harness.queueIsEmpty(), { what: 'both messages to be consumed' });
    expectCountsConsistent(view);
    expect(view.webhook_deliveries.length).toBe(hook.requests.length);
    const waits = scheduleMs(SCHEDULE);
    const requests = hook.requests;
    const gaps = requests.slice(1).map((request, i) => Math.round(request.at - (requests[i]?.at ?? 0)));
    gaps.forEach((gap, i) => {
      expect(gap, `gap ${i + 1} of ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(
        (waits[i] ?? 0) - EARLY_TOLERANCE_MS,
      );
    });
  });

  it('records every request of two messages sent at once, at most 20, and ends in success', async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver(failTimes(3));
    const { id } = await harness.quietPendingEvent(tenant, hook.url);
    await harness.sendMessages([id, id]);

    const view = await harness.waitForEvent(tenant, id, 'success', { timeoutMs: 60_000 });
    await waitFor(() => harness.queueIsEmpty(), { what: 'both messages to be consumed' });
    const settled = await harness.getEvent(tenant, id);
    expectCountsConsistent(view);
    expectCountsConsistent(settled);
    expect(settled.webhook_status).toBe('success');
    expect(settled.webhook_deliveries.length).toBe(hook.requests.length);
    expect(hook.requests.length).toBeGreaterThanOrEqual(4);
    expect(hook.requests.length).toBeLessThanOrEqual(20);
    const statuses = settled.webhook_deliveries.map((d) => d.response_status);
    expect(statuses.filter((s) => s === 500)).toHaveLength(3);
    expect(statuses.at(-1)).toBe(200);
  });
});
