/**
 * Routing decided once (issue 32), with in-memory fakes: the consumer's first handling of an event of an
 * account whose events need a decision records which endpoints it goes to (their subscriptions matched
 * on the type and the payload), and every later handling (a retry, a redelivery, a duplicate message)
 * goes by that record, whatever the endpoints or subscriptions became meanwhile; of two decisions made at
 * once the first recorded wins. An account with one endpoint subscribed to everything records nothing
 * and reads nothing more: its delivery costs what it did.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { deliverEvent } from '#delivery/deliver-event';
import { DeliveryContext } from '#delivery/delivery-context';
import { routingOf } from '#delivery/routing';
import type { Account } from '#domain/model';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

type NewExtraEndpoint = Parameters<InMemoryEndpointStore['addEndpoint']>[0];

const DEFAULT_ID = 'ep_00000000000d';
const CREDIT = 'credit_received';
const TRANSFER = 'credit_transfer_status_change';

/** A world whose account's default endpoint has an id, and a store of its extra endpoints. */
function routedWorld(subscription: Partial<Account> = {}) {
  const w = deliveryWorld();
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  w.directory.accounts.set(w.iban, { ...account, endpointId: DEFAULT_ID, ...subscription });
  const endpoints = new InMemoryEndpointStore(w.directory);
  const deps = { ...w.deps, endpointStore: endpoints };
  const account_ = () => {
    const found = w.directory.accounts.get(w.iban);
    if (!found) throw new Error('no account');
    return found;
  };
  const subscribe = (changes: Partial<Account>) =>
    w.directory.accounts.set(w.iban, { ...account_(), ...changes });
  const context = () => new DeliveryContext(w.directory, undefined, undefined, endpoints);
  /** Adds an extra endpoint to the account, created at the world's first instant unless `more` says. */
  const addExtra = (id: string, url: string, more: Partial<NewExtraEndpoint> = {}) =>
    endpoints.addEndpoint({
      iban: w.iban,
      orgId: 'org-1',
      id,
      url,
      createdAt: '2026-11-20T08:00:00.000Z',
      ...more,
    });
  return { ...w, deps, endpoints, account: account_, subscribe, context, addExtra };
}

const body = (payload: unknown) => JSON.stringify({ id: 'x', payload });

describe('routing an event', () => {
  it('routes an event to the extra endpoints of an account whose default endpoint has no URL', async () => {
    const w = routedWorld({ webhookUrl: undefined });
    await w.addExtra('ep_0000000000a1', 'https://ledger.example.com/h');
    w.events.seed({ id: 'e1', sequence: 1 });
    const outcome = await deliverEvent(w.deps, { id: 'e1', at: w.events.events.get('e1') }, 1, w.context());
    expect(outcome).toMatchObject({ kind: 'routed', endpoints: 1 });
    expect(w.events.events.get('e1')).toMatchObject({
      webhookStatus: 'pending',
      routes: ['ep_0000000000a1'],
    });
  });

  it('costs nothing for an account with one endpoint subscribed to everything', async () => {
    const w = routedWorld();
    w.events.seed({ id: 'e1' });
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('delivered');
    expect(w.events.writes).toEqual(['RecordAttempt']);
    expect(w.endpoints.reads).toBe(0);
    expect(w.events.events.get('e1')?.routes).toBeUndefined();
  });

  it("skips, without an attempt, an event the default endpoint's subscription does not want", async () => {
    const w = routedWorld({ eventTypes: [CREDIT] });
    w.events.seed({ id: 'e1', type: TRANSFER });
    w.events.seed({ id: 'e2', type: CREDIT });
    const skipped = await deliverEvent(w.deps, { id: 'e1' });
    expect(skipped).toMatchObject({ kind: 'skipped' });
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'skipped', routes: [] });
    expect((await deliverEvent(w.deps, { id: 'e2' })).kind).toBe('delivered');
    expect(w.events.events.get('e2')).toMatchObject({ webhookStatus: 'success', routes: [DEFAULT_ID] });
    expect(w.sender.requests).toHaveLength(1);
  });

  it("matches the payload filter, and records the extra endpoints' ids the event goes to", async () => {
    const w = routedWorld({ filter: { status: ['rejected'] } });
    const seen = await w.addExtra('ep_0000000000a1', 'https://books.example.com/h');
    await w.addExtra('ep_0000000000a2', 'https://credits.example.com/h', {
      eventTypes: [CREDIT],
      createdAt: '2026-11-20T08:00:01.000Z',
    });
    const rejectedEvent = w.events.seed({ id: 'rejected', body: body({ status: 'rejected' }) });
    const settledEvent = w.events.seed({ id: 'settled', body: body({ status: 'settled' }) });
    const context = w.context();
    const rejected = await routingOf(w.deps, context, rejectedEvent, w.account());
    const settled = await routingOf(w.deps, context, settledEvent, w.account());
    expect(rejected).toEqual({ routes: [DEFAULT_ID, seen.id], toDefault: true, fansOut: false });
    expect(settled).toEqual({ routes: [seen.id], toDefault: false, fansOut: false });
    // One read of the extra endpoints for the batch.
    expect(w.endpoints.reads).toBe(1);
  });

  it('goes by the recorded routing on a retry, though the subscription changed meanwhile', async () => {
    const w = routedWorld({ eventTypes: [TRANSFER] });
    w.events.seed({ id: 'e1', type: TRANSFER });
    w.sender.answer = () => answer(500);
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('retry');
    expect(w.events.events.get('e1')?.routes).toEqual([DEFAULT_ID]);
    // The subscription no longer wants the type: the event was routed before, it keeps going.
    w.subscribe({ eventTypes: [CREDIT] });
    w.sender.answer = () => answer(200);
    w.clock.advance(60_000);
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('delivered');
    expect(w.events.events.get('e1')?.webhookRetries).toBe(2);
  });

  it('keeps the first decision when two are made at once (a subscription changed in between)', async () => {
    const w = routedWorld({ eventTypes: [TRANSFER] });
    const event = w.events.seed({ id: 'e1', type: TRANSFER });
    const before = w.account();
    w.subscribe({ eventTypes: [CREDIT] });
    // Two consumers read the event unrouted; each its own account read (before and after the change).
    const first = await routingOf(w.deps, w.context(), event, before);
    const second = await routingOf(w.deps, w.context(), event, w.account());
    expect(first).toEqual({ routes: [DEFAULT_ID], toDefault: true, fansOut: false });
    expect(second).toEqual(first);
    expect(w.events.events.get('e1')?.routes).toEqual([DEFAULT_ID]);
  });

  it('records no routing when another consumer attempted the event unrouted meanwhile', async () => {
    const w = routedWorld();
    // Read unrouted with no attempt; meanwhile a consumer that saw one endpoint made the first attempt.
    const stale = w.events.seed({ id: 'e1', sequence: 1 });
    expect((await deliverEvent(w.deps, { id: 'e1' }, 1, w.context())).kind).toBe('delivered');
    await w.addExtra('ep_0000000000a1', 'https://ledger.example.com/h');
    expect(await routingOf(w.deps, w.context(), stale, w.account())).toBeUndefined();
    expect(w.events.events.get('e1')?.routes).toBeUndefined();
  });

  it('keeps the routing through a redelivery (a new cycle)', async () => {
    const w = routedWorld({ eventTypes: [CREDIT] });
    const event = w.events.seed({ id: 'e1', type: TRANSFER });
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('skipped');
    w.subscribe({ eventTypes: undefined });
    expect(await w.events.startCycle(event, 'org-1')).toBe(true);
    // Routed to no endpoint of the account when it was stored: its new cycle sends nothing either.
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('skipped');
    expect(w.sender.requests).toHaveLength(0);
  });

  it('does not route an event already sent to the default endpoint before its account needed routing', async () => {
    const w = routedWorld();
    w.events.seed({ id: 'e1', type: TRANSFER });
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: 'e1' });
    w.subscribe({ eventTypes: [CREDIT] });
    w.sender.answer = () => answer(200);
    w.clock.advance(60_000);
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('delivered');
    expect(w.events.events.get('e1')?.routes).toBeUndefined();
  });

  it('routes to a disabled default endpoint, whose delivery then settles skipped (recoverable)', async () => {
    const w = routedWorld({ eventTypes: [TRANSFER] });
    await w.health.disable(
      { iban: w.iban, orgId: 'org-1' },
      { at: '2026-11-20T09:30:00.000Z', reason: 'receiver answered 410' },
    );
    w.events.seed({ id: 'e1', type: TRANSFER });
    expect((await deliverEvent(w.deps, { id: 'e1' })).kind).toBe('skipped');
    expect(w.events.events.get('e1')?.routes).toEqual([DEFAULT_ID]);
  });
});
