/**
 * The circuit breaker through deliverEvent with fakes: it opens after repeated failures, defers without
 * recording, lets one probe through, closes on its success; Retry-After, 410 and auto-disable.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import type { Account } from '#domain/model';
import { renderTimestamp } from '#domain/time';
import { toAccountView } from '#http/accounts/account-view';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer, ok } from '../support/fakes/webhook-sender';

/** Seeds `n` pending events e0…e(n-1) with no attempts. */
function seed(w: DeliveryWorld, n: number): string[] {
  return Array.from({ length: n }, (_, i) => w.events.seed({ id: `e${i}` }).id);
}

async function account(w: DeliveryWorld): Promise<Account> {
  const read = await w.directory.getAccount(w.iban);
  if (!read) throw new Error('no account');
  return read;
}

function expectCountsConsistent(w: DeliveryWorld): void {
  for (const record of w.events.events.values()) {
    expect(record.webhookRetries).toBe(record.deliveries.length);
  }
}

describe('circuit breaker', () => {
  it('writes no health on a healthy endpoint’s fast success', async () => {
    const w = deliveryWorld();
    seed(w, 3);
    for (const id of ['e0', 'e1', 'e2']) await deliverEvent(w.deps, { id: id });
    expect(w.health.writes).toEqual([]);
  });

  it('opens after the threshold, defers without an attempt or record, probes once, and closes', async () => {
    const w = deliveryWorld({ failureThreshold: 3, openBaseSeconds: 30 });
    const ids = seed(w, 6);
    w.sender.answer = () => answer(500);
    for (const id of ids.slice(0, 3)) expect((await deliverEvent(w.deps, { id: id })).kind).toBe('retry');
    expect(w.health.get(w.iban)).toMatchObject({ state: 'degraded', consecutiveFailures: 3 });
    expect(w.health.get(w.iban).circuitOpenUntil).toBe(w.clock.now() + 30_000);

    const sent = w.sender.requests.length;
    const deferred = await deliverEvent(w.deps, { id: 'e3' });
    expect(deferred).toMatchObject({ kind: 'deferred', retryAfterSeconds: 30 });
    expect(w.sender.requests).toHaveLength(sent);
    expect(w.events.events.get('e3')?.webhookRetries).toBe(0);
    expectCountsConsistent(w);

    // Half open: one probe holds the slot; a second message meanwhile is deferred.
    w.clock.advance(30_001);
    let release: () => void = () => undefined;
    w.sender.answer = () => ok();
    const slowProbe = new Promise<void>((resolve) => {
      release = resolve;
    });
    const original = w.sender.send.bind(w.sender);
    w.sender.send = async (request) => {
      await slowProbe;
      return original(request);
    };
    const probe = deliverEvent(w.deps, { id: 'e4' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await deliverEvent(w.deps, { id: 'e5' })).toMatchObject({
      kind: 'deferred',
      reason: 'another probe is under way',
    });
    release();
    expect((await probe).kind).toBe('delivered');
    expect(w.health.get(w.iban)).toMatchObject({ state: 'healthy', consecutiveFailures: 0 });
    expect(w.health.slots.get(w.iban)?.size).toBe(0);
    w.sender.send = original;
    expect((await deliverEvent(w.deps, { id: 'e5' })).kind).toBe('delivered');
    expectCountsConsistent(w);
  });

  it('shows when the endpoint recovered: set by the success that makes it healthy, by no other success', async () => {
    const w = deliveryWorld({ slowMs: 1000 });
    seed(w, 4);
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: 'e0' });
    expect(w.health.get(w.iban).recoveredAt).toBeUndefined();
    // A slow success leaves it degraded: no recovery yet.
    w.clock.advance(1000);
    w.sender.answer = () => ok(1500);
    await deliverEvent(w.deps, { id: 'e1' });
    expect(w.health.get(w.iban)).toMatchObject({ state: 'degraded', consecutiveFailures: 0 });
    expect(w.health.get(w.iban).recoveredAt).toBeUndefined();
    w.clock.advance(1000);
    const recovery = w.clock.iso();
    w.sender.answer = () => ok(20);
    await deliverEvent(w.deps, { id: 'e2' });
    expect(w.health.get(w.iban)).toMatchObject({ state: 'healthy', recoveredAt: recovery });
    // Healthy again: the next success writes nothing, so the recovery stays what the API shows.
    const writes = w.health.writes.length;
    w.clock.advance(1000);
    await deliverEvent(w.deps, { id: 'e3' });
    expect(w.health.writes).toHaveLength(writes);
    expect(
      toAccountView(await account(w), 'https://api.example.com', { fullUrl: true }).webhook_health,
    ).toMatchObject({
      state: 'healthy',
      recovered_at: renderTimestamp(recovery),
    });
  });

  it('reopens for twice as long after a failed probe, up to the maximum', async () => {
    const w = deliveryWorld({ failureThreshold: 1, openBaseSeconds: 30, openMaxSeconds: 90 });
    const ids = seed(w, 4);
    w.sender.answer = () => answer(0);
    await deliverEvent(w.deps, { id: ids[0] ?? '' });
    const opened = [w.health.get(w.iban).circuitOpenUntil ?? 0];
    for (const id of ids.slice(1)) {
      w.clock.advance((opened.at(-1) ?? 0) - w.clock.now() + 1);
      expect((await deliverEvent(w.deps, { id: id })).kind).toBe('retry');
      opened.push(w.health.get(w.iban).circuitOpenUntil ?? 0);
    }
    const periods = opened.slice(1).map((until, i) => until - (opened[i] ?? 0) - 1);
    expect(periods).toEqual([60_000, 90_000, 90_000]);
  });

  it('waits at least the Retry-After of a 429 for the event and the endpoint', async () => {
    const w = deliveryWorld();
    seed(w, 2);
    w.sender.answer = () => answer(429, '120');
    expect(await deliverEvent(w.deps, { id: 'e0' })).toMatchObject({ kind: 'retry', retryAfterSeconds: 120 });
    expect(w.events.events.get('e0')?.nextAttemptAt).toBe(w.clock.now() + 120_000);
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({
      kind: 'deferred',
      retryAfterSeconds: 120,
    });
  });

  it('caps a Retry-After (HTTP date) at what SQS can postpone', async () => {
    const w = deliveryWorld();
    seed(w, 1);
    w.sender.answer = () => answer(503, new Date(w.clock.now() + 3 * 86_400_000).toUTCString());
    const outcome = await deliverEvent(w.deps, { id: 'e0' });
    expect(outcome).toMatchObject({ kind: 'retry', retryAfterSeconds: 12 * 3600 - 120 });
  });

  it('disables the endpoint on 410: the event settles failed, later ones skipped without an attempt', async () => {
    const w = deliveryWorld();
    seed(w, 2);
    w.sender.answer = () => answer(410);
    expect((await deliverEvent(w.deps, { id: 'e0' })).kind).toBe('exhausted');
    expect(w.events.events.get('e0')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 1 });
    expect(w.health.get(w.iban)).toMatchObject({ state: 'disabled', reason: 'receiver answered 410 Gone' });
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'skipped' });
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'skipped', webhookRetries: 0 });
    expect(w.sender.requests).toHaveLength(1);
  });

  it('reports a change by the endpoint id, giving one to an account from before ids', async () => {
    const w = deliveryWorld();
    seed(w, 2);
    w.sender.answer = () => answer(410);
    // The seeded account predates endpoint ids: its first change gives it one, which the report carries.
    const first = await deliverEvent(w.deps, { id: 'e0' });
    const given = w.health.endpointIds.get(w.iban);
    expect(given).toMatch(/^ep_[0-9a-f]{12}$/);
    expect(first).toMatchObject({ endpoint: { change: 'disabled', endpointId: given } });
    expect(JSON.stringify(first)).not.toContain('"endpointId":"DE');

    const v = deliveryWorld();
    v.directory.addAccount({
      iban: v.iban,
      webhookUrl: 'https://hooks.example.com/herald',
      endpointId: 'ep_00000000000a',
    });
    v.events.seed({ id: 'e0' });
    v.sender.answer = () => answer(410);
    expect(await deliverEvent(v.deps, { id: 'e0' })).toMatchObject({
      endpoint: { endpointId: 'ep_00000000000a' },
    });
    expect(v.health.writes).not.toContain('endpoint-id');
  });

  it('records the attempt when the account is deleted mid-flight: its health writes are dropped, not errors', async () => {
    const w = deliveryWorld();
    seed(w, 2);
    w.sender.answer = () => {
      // The account is deleted while the request is under way: its failure write's condition fails.
      void w.directory.deleteAccount({ iban: w.iban, orgId: 'org-1', deletedAt: w.clock.iso() });
      return answer(500);
    };
    const outcome = await deliverEvent(w.deps, { id: 'e0' });
    expect(outcome).toMatchObject({ kind: 'retry', retryAfterSeconds: 10 });
    expect(outcome).not.toHaveProperty('endpointError');
    expect(w.events.events.get('e0')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
    // 410: the disable is dropped too, and the event settles failed with the attempt that showed it.
    w.directory.addAccount({ iban: w.iban, webhookUrl: 'https://hooks.example.com/herald' });
    w.sender.answer = () => {
      void w.directory.deleteAccount({ iban: w.iban, orgId: 'org-1', deletedAt: w.clock.iso() });
      return answer(410);
    };
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('exhausted');
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 1 });
    expect(w.health.writes).toEqual(['record-failure', 'disable']);
    expectCountsConsistent(w);
  });

  it('records the attempt when the health write fails (throttled), and reports it', async () => {
    const w = deliveryWorld();
    seed(w, 1);
    w.sender.answer = () => answer(500);
    w.health.recordAttempt = async () => {
      throw new Error('ProvisionedThroughputExceeded');
    };
    const outcome = await deliverEvent(w.deps, { id: 'e0' });
    expect(outcome).toMatchObject({ kind: 'retry', retryAfterSeconds: 10 });
    expect('endpointError' in outcome && outcome.endpointError).toBeInstanceOf(Error);
    expect(w.events.events.get('e0')).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
  });

  it('acts on an enable at once: the next batch reads the account fresh, with no confirming read', async () => {
    const w = deliveryWorld();
    seed(w, 2);
    w.health.health.set(w.iban, { ...w.health.get(w.iban), state: 'disabled', reason: 'gone' });
    expect(await deliverEvent(w.deps, { id: 'e0' })).toMatchObject({ kind: 'skipped' });
    await w.health.enable({ iban: w.iban, orgId: 'org-1' }, w.clock.iso());
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('delivered');
    // One account read per delivery (each its own batch here): a disabled verdict was not read twice.
    expect(w.directory.consistentReads.getAccount).toBe(2);
    expect(w.sender.requests).toHaveLength(1);
  });

  it('disables an endpoint that kept failing for the auto-disable period', async () => {
    const w = deliveryWorld({ failureThreshold: 100, autoDisableAfterMs: 3_600_000 });
    const ids = seed(w, 3);
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: ids[0] ?? '' });
    w.clock.advance(3_599_000);
    await deliverEvent(w.deps, { id: ids[1] ?? '' });
    expect(w.health.get(w.iban).state).toBe('degraded');
    w.clock.advance(1_000);
    await deliverEvent(w.deps, { id: ids[2] ?? '' });
    expect(w.health.get(w.iban)).toMatchObject({ state: 'disabled' });
    expect(w.health.get(w.iban).reason).toMatch(/^failing continuously since 2026-11-20T10:00:00.000Z/);
  });

  it('limits a slow endpoint to its concurrency slots and defers the rest', async () => {
    const w = deliveryWorld({ concurrency: 2, slowMs: 1_000 });
    const ids = seed(w, 5);
    w.sender.answer = () => ok(3_000);
    await deliverEvent(w.deps, { id: 'e0' });
    expect(w.health.get(w.iban)).toMatchObject({ state: 'degraded', recentLatencyMs: 3_000 });
    expect(w.health.get(w.iban).reason).toMatch(/^slow/);
    // Hold every slot: deliveries in flight at once get at most two.
    const gates: (() => void)[] = [];
    const original = w.sender.send.bind(w.sender);
    w.sender.send = async (request) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return original(request);
    };
    const running = ids.slice(1).map((id) => deliverEvent(w.deps, { id: id }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gates).toHaveLength(2);
    for (const open of gates) open();
    const kinds = (await Promise.all(running)).map((o) => o.kind).sort();
    expect(kinds).toEqual(['deferred', 'deferred', 'delivered', 'delivered']);
    expect(w.health.slots.get(w.iban)?.size).toBe(0);
  });
});
