/**
 * What `DeliveryLedger.settleRoute` does, run against the in-memory store (unit) and DynamoDB Local
 * (integration): each routed endpoint is counted once (a second count changes nothing, the attempts are
 * not added twice); a failure makes the event `failed` at once; the last endpoint to settle makes it
 * `success` when one delivery succeeded and none failed, `skipped` when every one was skipped; an event
 * never routed, or an endpoint it was not routed to, is not counted; a new cycle of the event counts its
 * endpoints again, in the next route cycle; one endpoint reopened (a new cycle of its delivery alone) is
 * counted again, the others kept; a settlement repeated after a crash between an adapter's writes finishes
 * the event.
 */
import { expect, it } from 'vitest';
import type { EventRecord, EventRef } from '#domain/model';
import type { DeliveryLedger } from '#domain/ports';

/** What the contract needs of a store. */
export interface RouteSettlementWorld {
  readonly ledger: Pick<DeliveryLedger, 'settleRoute' | 'recordRoutes' | 'startCycle' | 'reopenRoute'>;
  /** A new pending event, not routed. */
  event(): Promise<EventRef>;
  read(ref: EventRef): Promise<EventRecord>;
}

const A = 'ep_0000000000a1';
const B = 'ep_0000000000b2';
const C = 'ep_0000000000c3';

/**
 * Declares the contract's tests for the world `world()` gives (after the file's setup).
 *
 * @param crashBetweenWrites - for an adapter that settles in two writes: makes its next settling write
 *   (the one after the count) throw once, as a crash there would leave it
 */
export function routeSettlementsContract(
  world: () => RouteSettlementWorld,
  crashBetweenWrites?: () => void,
): void {
  const routed = async (routes: string[]) => {
    const ref = await world().event();
    await world().ledger.recordRoutes(ref, routes);
    return ref;
  };

  it('settles success once every routed endpoint succeeded, counting each once', async () => {
    const ref = await routed([A, B, C]);
    expect(await world().ledger.settleRoute(ref, A, 'success', 1)).toBe('pending');
    expect(await world().ledger.settleRoute(ref, A, 'success', 1)).toBe('pending');
    expect(await world().ledger.settleRoute(ref, B, 'success', 3)).toBe('pending');
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 4 });
    expect(await world().ledger.settleRoute(ref, C, 'success', 2)).toBe('success');
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'success', webhookRetries: 6 });
  });

  it('fails the event at the first failure, and keeps it failed', async () => {
    const ref = await routed([A, B]);
    expect(await world().ledger.settleRoute(ref, A, 'failed', 20)).toBe('failed');
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'failed', webhookRetries: 20 });
    expect(await world().ledger.settleRoute(ref, B, 'success', 1)).toBe('failed');
    expect((await world().read(ref)).webhookRetries).toBe(21);
  });

  it('settles success when every endpoint settled, none failed and one succeeded; skipped when all skipped', async () => {
    const ref = await routed([A, B]);
    expect(await world().ledger.settleRoute(ref, A, 'skipped', 0)).toBe('pending');
    expect(await world().ledger.settleRoute(ref, B, 'success', 1)).toBe('success');
    const nowhere = await routed([A, B]);
    expect(await world().ledger.settleRoute(nowhere, A, 'skipped', 0)).toBe('pending');
    expect(await world().ledger.settleRoute(nowhere, B, 'skipped', 0)).toBe('skipped');
  });

  it('counts every endpoint again in a new cycle of the event, numbered the next route cycle', async () => {
    const ref = await routed([A, B]);
    await world().ledger.settleRoute(ref, A, 'success', 1);
    expect(await world().ledger.settleRoute(ref, B, 'failed', 20)).toBe('failed');
    const { orgId, routeCycle } = await world().read(ref);
    expect(routeCycle ?? 0).toBe(0);
    expect(await world().ledger.startCycle(ref, orgId)).toBe(true);
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'pending', routeCycle: 1, cycleBase: 21 });
    expect(await world().ledger.settleRoute(ref, A, 'success', 0)).toBe('pending');
    expect(await world().ledger.settleRoute(ref, B, 'success', 2)).toBe('success');
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'success', webhookRetries: 23 });
  });

  it('counts nothing on an event that was never routed', async () => {
    const ref = await world().event();
    expect(await world().ledger.settleRoute(ref, A, 'success', 1)).toBeUndefined();
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 0 });
  });

  it('reopens one endpoint alone: pending again, counted again when it settles, its attempts kept', async () => {
    const ref = await routed([A, B]);
    await world().ledger.settleRoute(ref, A, 'success', 1);
    expect(await world().ledger.settleRoute(ref, B, 'skipped', 0)).toBe('success');
    expect(await world().ledger.reopenRoute(ref, B)).toBe(true);
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
    // A is still counted: a second count of it changes nothing.
    expect(await world().ledger.settleRoute(ref, A, 'success', 1)).toBe('pending');
    expect(await world().ledger.settleRoute(ref, B, 'success', 2)).toBe('success');
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'success', webhookRetries: 3 });
  });

  it('keeps the event failed when another endpoint failed for good', async () => {
    const ref = await routed([A, B]);
    await world().ledger.settleRoute(ref, A, 'failed', 20);
    await world().ledger.settleRoute(ref, B, 'failed', 20);
    expect(await world().ledger.reopenRoute(ref, B)).toBe(true);
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'failed', webhookRetries: 40 });
    expect(await world().ledger.settleRoute(ref, B, 'success', 1)).toBe('failed');
    // Reopening the failed one too leaves nothing failed: pending, then success when both succeed.
    expect(await world().ledger.reopenRoute(ref, A)).toBe(true);
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 41 });
    expect(await world().ledger.settleRoute(ref, A, 'success', 1)).toBe('success');
  });

  it('reopens nothing on an event that was never routed', async () => {
    const ref = await world().event();
    expect(await world().ledger.reopenRoute(ref, A)).toBe(false);
  });

  it('does not count an endpoint the event was not routed to', async () => {
    const ref = await routed([A, B]);
    expect(await world().ledger.settleRoute(ref, C, 'success', 1)).toBe('pending');
    expect(await world().ledger.settleRoute(ref, A, 'success', 1)).toBe('pending');
    expect(await world().read(ref)).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
    expect(await world().ledger.settleRoute(ref, B, 'success', 1)).toBe('success');
  });

  if (crashBetweenWrites) {
    it('finishes the event when the last settlement is repeated after a crash between its writes', async () => {
      const ref = await routed([A, B]);
      await world().ledger.settleRoute(ref, A, 'success', 1);
      crashBetweenWrites();
      await expect(world().ledger.settleRoute(ref, B, 'success', 2)).rejects.toThrow();
      expect((await world().read(ref)).webhookStatus).toBe('pending');
      expect(await world().ledger.settleRoute(ref, B, 'success', 2)).toBe('success');
      expect(await world().read(ref)).toMatchObject({ webhookStatus: 'success', webhookRetries: 3 });
    });
  }
}
