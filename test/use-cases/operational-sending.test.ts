/**
 * Operational notices sent to their organization's operational webhook, with fakes: the notice's message
 * (as the forwarder queues it) is delivered signed, in an event webhook's envelope; without a URL it
 * settles `skipped`; it is retried on the schedule, at most 20 attempts; and the operational webhook's
 * failures (a 410 included) announce nothing and touch no account's endpoint.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { reconcileDeadLetter } from '#delivery/dead-letter';
import { deliverBatch } from '#delivery/deliver-batch';
import { deliverEvent } from '#delivery/deliver-event';
import { decodeDeliveryMessage, encodeDeliveryMessage } from '#domain/delivery-message';
import { FAILING_NOTICE_AFTER, type Notice, type NoticeRef, noticeSortKey } from '#domain/notices/notice';
import { noticePayload } from '#domain/notices/notice-payload';
import type { WebhookRequest } from '#domain/ports';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { answer, ok } from '../support/fakes/webhook-sender';

const OPS_URL = 'https://ops.example.com/herald';
const BASE_URL = 'https://api.example.com';

/** A world whose consumer sends notices, its organization's operational webhook at `url`. */
function opsWorld(url: string | null = OPS_URL): DeliveryWorld {
  const w = deliveryWorld({ failureThreshold: 100 });
  const org = w.directory.addOrganization();
  if (url !== null) Object.assign(org, { opsWebhookUrl: url });
  Object.assign(w.deps, { operational: { deliveries: w.notices, baseUrl: BASE_URL, health: w.health } });
  return w;
}

/** Fails the account's endpoint until it is announced failing; the notice stored. */
async function failingNotice(w: DeliveryWorld): Promise<Notice> {
  const customer = w.sender.answer;
  w.sender.answer = (request) => (request.url === OPS_URL ? customer(request) : answer(503));
  for (let i = 0; i < FAILING_NOTICE_AFTER; i++) {
    await deliverEvent(w.deps, { id: w.events.seed({ id: `e${i}` }).id });
  }
  w.sender.answer = customer;
  const [notice] = w.notices.notices;
  if (notice?.kind !== 'endpoint_failing') throw new Error('no failing notice');
  return notice;
}

/** Where the notice is. */
function refOf(notice: Notice): NoticeRef {
  return { id: notice.id, orgId: notice.orgId, sortKey: noticeSortKey(notice) };
}

/** The notice's message, as the forwarder queues it (through the codec). */
function target(notice: Notice) {
  const decoded = decodeDeliveryMessage(encodeDeliveryMessage({ id: notice.id, notice: refOf(notice) }));
  if (decoded === undefined) throw new Error('the codec lost the notice');
  return decoded;
}

function opsRequests(w: DeliveryWorld): WebhookRequest[] {
  return w.sender.requests.filter((request) => request.url === OPS_URL);
}

describe('operational webhook', () => {
  it('sends a notice signed, in an event webhook’s envelope, and records the attempt on it', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    const outcome = await deliverEvent(w.deps, target(notice));
    expect(outcome.kind).toBe('delivered');
    const [request] = opsRequests(w);
    if (request === undefined) throw new Error('nothing sent');
    const token = (await w.directory.getOrganization('org-1'))?.webhookToken ?? '';
    // The receiver's check of the timestamp, at the fake clock's time.
    vi.useFakeTimers({ toFake: ['Date'], now: w.clock.now() });
    const body = new Webhook(token).verify(request.body, {
      'webhook-id': request.headers['webhook-id'] ?? '',
      'webhook-timestamp': request.headers['webhook-timestamp'] ?? '',
      'webhook-signature': request.headers['webhook-signature'] ?? '',
    });
    vi.useRealTimers();
    expect(request.headers['webhook-id']).toBe(notice.id);
    expect(request.headers['X-Signature']).toMatch(/^t=\d+,sha256=/);
    expect(body).toEqual({
      id: notice.id,
      type: 'endpoint_failing',
      type_version: 1,
      account: w.iban,
      sequence: null,
      triggered_at: noticePayload(notice).at,
      payload: JSON.parse(JSON.stringify(noticePayload(notice))),
      _links: {
        self: `${BASE_URL}/operational-events/${notice.id}`,
        account: `${BASE_URL}/accounts/${w.iban}`,
      },
    });
    expect(JSON.stringify(body)).not.toContain('hooks.example.com');
    const delivery = await w.notices.delivery(notice.id);
    expect(delivery).toMatchObject({ status: 'success', retries: 1 });
    expect(delivery.deliveries[0]).toMatchObject({ responseStatus: 200, url: OPS_URL });
    // A copy of the message (the stream forwards at least once) sends nothing more.
    expect((await deliverEvent(w.deps, target(notice))).kind).toBe('dropped');
    expect(opsRequests(w)).toHaveLength(1);
  });

  it('sends no notice whose payload its catalog type refuses, and settles it `failed`', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    // A failing notice must say when the endpoint will be disabled: this one (a defect) does not.
    const { disableAt: _omitted, ...defective } = notice;
    const broken = { ...defective, id: 'ntc_000000000000000000000001' };
    await w.notices.record(broken);
    const sent = w.sender.requests.length;
    const outcome = await deliverEvent(w.deps, target(broken));
    expect(outcome).toMatchObject({ kind: 'dropped' });
    expect((outcome as { reason: string }).reason).toMatch(
      /does not pass its catalog type: payload\/disable_at/,
    );
    expect(w.sender.requests).toHaveLength(sent);
    expect(await w.notices.delivery(broken.id)).toMatchObject({ status: 'failed', retries: 0 });
    // The notices Herald makes pass theirs.
    expect((await deliverEvent(w.deps, target(notice))).kind).toBe('delivered');
  });

  it('settles a notice `skipped` when its organization has no operational webhook, and sends nothing', async () => {
    const w = opsWorld(null);
    const notice = await failingNotice(w);
    const sent = w.sender.requests.length;
    const outcome = await deliverEvent(w.deps, target(notice));
    expect(outcome).toMatchObject({ kind: 'skipped', reason: 'the organization has no operational webhook' });
    expect(w.sender.requests).toHaveLength(sent);
    expect(await w.notices.delivery(notice.id)).toMatchObject({ status: 'skipped', retries: 0 });
    // Settled: no retry.
    expect((await deliverEvent(w.deps, target(notice))).kind).toBe('dropped');
  });

  it('drops the message of a notice erased with its account, sending nothing and leaving nothing', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    expect(await w.notices.eraseAccountNotices(notice.orgId, w.iban)).toEqual({ erased: 1 });
    const outcome = await deliverEvent(w.deps, target(notice));
    expect(outcome).toEqual({ kind: 'dropped', reason: 'notice not found' });
    expect(opsRequests(w)).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(await w.notices.page(notice.orgId, 0, 10)).toEqual({ notices: [], hasMore: false });
  });

  it('records nothing of an attempt whose notice was erased while it was being sent', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    w.sender.answer = async () => {
      await w.notices.eraseAccountNotices(notice.orgId, w.iban);
      return answer(500);
    };
    // The attempt failed as answered; its record is refused, and the retry finds no notice.
    expect((await deliverEvent(w.deps, target(notice))).kind).toBe('retry');
    expect(await w.notices.readNotice(refOf(notice))).toBeUndefined();
    w.clock.advance(10_000);
    const retry = await deliverEvent(w.deps, target(notice));
    expect(retry).toEqual({ kind: 'dropped', reason: 'notice not found' });
    expect(opsRequests(w)).toHaveLength(1);
    expect(w.errors).toEqual([]);
    expect(await w.notices.page(notice.orgId, 0, 10)).toEqual({ notices: [], hasMore: false });
  });

  it('retries a failed notice on the schedule, then records its success', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    w.sender.answer = (request) => (request.url === OPS_URL ? answer(500) : ok());
    const first = await deliverEvent(w.deps, target(notice));
    expect(first).toMatchObject({ kind: 'retry', retryAfterSeconds: 10 });
    // Not due yet: no attempt.
    expect((await deliverEvent(w.deps, target(notice))).kind).toBe('not-due');
    w.clock.advance(10_000);
    w.sender.answer = () => ok();
    expect((await deliverEvent(w.deps, target(notice))).kind).toBe('delivered');
    const delivery = await w.notices.delivery(notice.id);
    expect(delivery).toMatchObject({ status: 'success', retries: 2 });
    expect(delivery.deliveries.map((d) => d.responseStatus)).toEqual([500, 200]);
  });

  it('makes at most 20 attempts, then the notice settles `failed` (the dead letter too)', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    w.sender.answer = (request) => (request.url === OPS_URL ? answer(500) : ok());
    const kinds: string[] = [];
    for (let i = 0; i < 25; i++) {
      kinds.push((await deliverEvent(w.deps, target(notice))).kind);
      w.clock.advance(60_000);
    }
    expect(opsRequests(w)).toHaveLength(20);
    expect(kinds.slice(0, 19).every((kind) => kind === 'retry')).toBe(true);
    expect(kinds[19]).toBe('exhausted');
    expect(await w.notices.delivery(notice.id)).toMatchObject({ status: 'failed', retries: 20 });
    expect(await reconcileDeadLetter(w.deps, target(notice))).toBe('settled');
    // A notice that ran out of attempts is announced by nothing (no loop): the failing notice is all.
    expect(w.notices.notices.map((stored) => stored.id)).toEqual([notice.id]);
  });

  it('queues a dead-lettered notice again while it has attempts left, and settles it `failed` after', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    expect(await reconcileDeadLetter(w.deps, target(notice))).toBe('requeued');
    expect(w.queue.bodies.at(-1)).toBe(encodeDeliveryMessage({ id: notice.id, notice: refOf(notice) }));
    // Its attempts used up while still pending (as a crash after the last record could leave it).
    const attempt = {
      deliveredAt: '2026-11-20T10:00:00.000Z',
      responseStatus: 500,
      responseBody: '',
      responseTimeMs: 1,
    };
    for (let i = 0; i < 20; i++) await w.notices.recordAttempt(refOf(notice), attempt, 'pending');
    expect(await reconcileDeadLetter(w.deps, target(notice))).toBe('exhausted');
    expect(await w.notices.delivery(notice.id)).toMatchObject({ status: 'failed', retries: 20 });
    expect(w.notices.notices.map((stored) => stored.id)).toEqual([notice.id]);
  });

  it('announces nothing about a failing operational webhook and touches no account’s endpoint', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    const customer = w.health.get(w.iban);
    const notices = w.notices.attempts.length;
    // Failing far past the point an endpoint is announced failing, and answering 410 (which disables an
    // endpoint): it stays the organization's own, enabled.
    let status = 500;
    w.sender.answer = (request) => (request.url === OPS_URL ? answer(status) : ok());
    for (let i = 0; i < 8; i++) {
      await deliverEvent(w.deps, target(notice));
      w.clock.advance(60_000);
    }
    status = 410;
    const gone = await deliverEvent(w.deps, target(notice));
    expect(gone.kind).toBe('exhausted');
    expect(w.notices.attempts).toHaveLength(notices);
    expect(w.health.get(w.iban)).toEqual(customer);
    const ops = w.health.get(`OPS#${notice.orgId}`);
    expect(ops).toMatchObject({ state: 'degraded', consecutiveFailures: 9 });
    expect(ops.noticed).toBeUndefined();
    // The customer's endpoint still delivers at once, whatever its organization's operational webhook does.
    const outcome = await deliverEvent(w.deps, { id: w.events.seed({ id: 'after' }).id });
    expect(outcome.kind).toBe('delivered');
    expect(w.health.get(w.iban)).toMatchObject({ state: 'healthy' });
  });

  it('defers a notice while the operational webhook’s circuit is open, without an attempt', async () => {
    const w = opsWorld();
    const notice = await failingNotice(w);
    const policy = { ...w.deps.healthPolicy, failureThreshold: 2, openBaseSeconds: 120 };
    Object.assign(w.deps, { healthPolicy: policy });
    w.sender.answer = (request) => (request.url === OPS_URL ? answer(500) : ok());
    await deliverEvent(w.deps, target(notice));
    w.clock.advance(10_000);
    await deliverEvent(w.deps, target(notice));
    w.clock.advance(30_000);
    const deferred = await deliverEvent(w.deps, target(notice));
    expect(deferred).toMatchObject({ kind: 'deferred', reason: 'circuit open' });
    expect(opsRequests(w)).toHaveLength(2);
    expect(await w.notices.delivery(notice.id)).toMatchObject({ status: 'pending', retries: 2 });
    // The account's endpoint, in the same batch, is not held by it.
    const customer = w.events.seed({ id: 'customer' });
    const ops = target(notice);
    await deliverBatch(w.deps, [
      { ...message(customer), messageId: 'c' },
      {
        ...message(customer),
        messageId: 'o',
        body: encodeDeliveryMessage({ id: ops.id, notice: refOf(notice) }),
      },
    ]);
    expect(
      w.outcomes
        .slice(-2)
        .map((o) => o.kind)
        .sort(),
    ).toEqual(['deferred', 'delivered']);
  });
});
