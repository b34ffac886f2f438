/**
 * deliverEvent with in-memory fakes and an injected clock: every DeliveryOutcome kind, lease conflicts,
 * and the stamp of each attempt.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import { webhookTokenId } from '#domain/signing/webhook-token';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

describe('deliverEvent', () => {
  it('delivers a first attempt without a lease, stamped with the injected clock, in one write', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    const outcome = await deliverEvent(w.deps, { id: 'e1' });
    expect(outcome.kind).toBe('delivered');
    const stored = await w.events.getEvent('e1');
    expect(stored?.webhookStatus).toBe('success');
    const token = w.directory.organizations.get('org-1')?.webhookToken ?? '';
    expect(stored?.deliveries).toEqual([
      {
        deliveredAt: '2026-11-20T10:00:00.000Z',
        responseStatus: 200,
        responseBody: 'ok',
        responseTimeMs: 20,
        // What was sent where, and with which token: the record needs no other source.
        url: 'https://hooks.example.com/herald',
        signingKeys: [webhookTokenId(token)],
      },
    ]);
    expect(stored?.signature).toBe(w.sender.requests[0]?.headers['X-Signature']);
    expect(w.events.writes).toEqual(['RecordAttempt']);
    expect(w.health.writes).toEqual([]);
    expect(w.sender.requests[0]?.headers['webhook-timestamp']).toBe(
      String(Date.parse('2026-11-20T10:00:00Z') / 1000),
    );
  });

  it("sends to the URL as saved, but records it with its query's values masked", async () => {
    const w = deliveryWorld();
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    const url = 'https://hooks.example.com/herald?token=s3cret&tenant=acme';
    w.directory.accounts.set(w.iban, { ...account, webhookUrl: url });
    w.events.seed({ id: 'e1' });
    w.events.seed({ id: 'e2' });
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: 'e1' });
    // An attempt Herald could not make is recorded with the URL masked the same.
    const throwing = { send: () => Promise.reject(new Error(`could not reach ${url}`)) };
    await deliverEvent({ ...w.deps, sender: throwing }, { id: 'e2' });
    expect(w.sender.requests.map((r) => r.url)).toEqual([url]);
    for (const id of ['e1', 'e2']) {
      const stored = w.events.events.get(id);
      expect(stored?.deliveries[0]?.url).toBe('https://hooks.example.com/herald?token=***&tenant=***');
      expect(JSON.stringify(stored)).not.toContain('s3cret');
    }
  });

  it('schedules a retry after a failure and records the due time', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    w.sender.answer = () => answer(500);
    const outcome = await deliverEvent(w.deps, { id: 'e1' });
    expect(outcome).toMatchObject({ kind: 'retry', retryAfterSeconds: 10 });
    const stored = await w.events.getEvent('e1');
    expect(stored).toMatchObject({
      webhookStatus: 'pending',
      webhookRetries: 1,
      nextAttemptAt: w.clock.now() + 10_000,
    });
  });

  it('answers not-due for a duplicate message before the scheduled retry, and makes no attempt', async () => {
    const w = deliveryWorld();
    w.events.seed({
      id: 'e1',
      webhookRetries: 1,
      deliveries: [attempt()],
      nextAttemptAt: w.clock.now() + 5_000,
    });
    expect(await deliverEvent(w.deps, { id: 'e1' })).toEqual({ kind: 'not-due', retryAfterSeconds: 5 });
    expect(w.sender.requests).toHaveLength(0);
  });

  it('takes a lease for a later attempt; a held lease makes the message a duplicate', async () => {
    const w = deliveryWorld();
    w.events.seed({
      id: 'e1',
      webhookRetries: 1,
      deliveries: [attempt()],
      leaseUntil: w.clock.now() + 60_000,
    });
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'duplicate' });
    expect(w.sender.requests).toHaveLength(0);
    w.clock.advance(61_000);
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'delivered' });
    expect(w.events.writes).toEqual(['TakeLease', 'TakeLease', 'RecordAttempt']);
  });

  it('settles failed after the last attempt of the cycle (exhausted with the attempt)', async () => {
    const w = deliveryWorld({ failureThreshold: 100 });
    w.events.seed({ id: 'e1', webhookRetries: 19, deliveries: Array.from({ length: 19 }, attempt) });
    w.sender.answer = () => answer(500);
    const outcome = await deliverEvent(w.deps, { id: 'e1' });
    expect(outcome.kind).toBe('exhausted');
    expect(await w.events.getEvent('e1')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 20 });
  });

  it('settles failed without an attempt when the cycle has none left (exhausted without attempt)', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1', webhookRetries: 20, deliveries: Array.from({ length: 20 }, attempt) });
    const outcome = await deliverEvent(w.deps, { id: 'e1' });
    expect(outcome.kind).toBe('exhausted');
    expect('attempt' in outcome && outcome.attempt).toBeFalsy();
    expect(w.sender.requests).toHaveLength(0);
  });

  it('settles skipped when the account has no webhook URL, or was deleted', async () => {
    const w = deliveryWorld();
    w.directory.addAccount({ iban: 'DE02120300000000202051' });
    w.events.seed({ id: 'e1', account: 'DE02120300000000202051' });
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({
      kind: 'skipped',
      reason: 'account has no webhook_url',
    });
    expect((await w.events.getEvent('e1'))?.webhookStatus).toBe('skipped');
    await w.directory.deleteAccount({ iban: w.iban, orgId: 'org-1', deletedAt: w.clock.iso() });
    w.events.seed({ id: 'e2' });
    expect(await deliverEvent(w.deps, { id: 'e2' })).toMatchObject({
      kind: 'skipped',
      reason: 'account deleted',
    });
    expect(w.sender.requests).toHaveLength(0);
  });

  it('drops unknown and settled events, and fails one whose organization is gone', async () => {
    const w = deliveryWorld();
    expect(await deliverEvent(w.deps, { id: 'nope' })).toMatchObject({
      kind: 'dropped',
      reason: 'event not found',
    });
    w.events.seed({ id: 'done', webhookStatus: 'success' });
    expect(await deliverEvent(w.deps, { id: 'done' })).toMatchObject({
      kind: 'dropped',
      reason: 'event is success',
    });
    w.directory.organizations.clear();
    w.events.seed({ id: 'orphan' });
    expect(await deliverEvent(w.deps, { id: 'orphan' })).toMatchObject({ kind: 'dropped' });
    expect((await w.events.getEvent('orphan'))?.webhookStatus).toBe('failed');
  });

  it('drops a message whose place in the log holds another event, without sending either', async () => {
    const w = deliveryWorld();
    const now = w.events.seed({ id: 'now', sequence: 1 });
    // A message of an erased account's event at sequence 1; the re-created account's log holds 'now' there.
    const at = { id: 'gone', orgId: now.orgId, account: now.account, sequence: 1 };
    expect(await deliverEvent(w.deps, { id: 'gone', at })).toMatchObject({
      kind: 'dropped',
      reason: 'event not found',
    });
    expect(w.sender.requests).toHaveLength(0);
    expect((await w.events.getEvent('now'))?.webhookRetries).toBe(0);
    // Its own message still delivers it.
    expect(await deliverEvent(w.deps, { id: 'now', at: { ...at, id: 'now' } })).toMatchObject({
      kind: 'delivered',
    });
  });

  it('drops a failed attempt whose event a concurrent first attempt delivered meanwhile', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    w.sender.answer = () => {
      // The concurrent copy's success lands while this request is under way.
      const record = w.events.events.get('e1');
      if (record) w.events.events.set('e1', { ...record, webhookStatus: 'success' });
      return answer(500);
    };
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({
      kind: 'dropped',
      reason: 'a concurrent attempt succeeded',
    });
    expect((await w.events.getEvent('e1'))?.webhookRetries).toBe(1);
  });
});

/** A recorded failed attempt. */
function attempt() {
  return {
    deliveredAt: '2026-11-20T09:00:00.000Z',
    responseStatus: 500,
    responseBody: '',
    responseTimeMs: 5,
  };
}
