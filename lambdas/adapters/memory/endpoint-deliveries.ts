/**
 * {@link EndpointDeliveries} in memory, with the DynamoDB adapter's conditions: a delivery is untouched
 * (pending, no attempt) until its first write; a lease needs a pending delivery with the expected attempt
 * count, no live lease and a due next attempt; a failure only moves a pending delivery while a success
 * always wins and every attempt is recorded; a delivery belongs to one event id (a stale ref of an erased
 * and re-created log writes nothing).
 */

import { MAX_CYCLES } from '#delivery/retry-rule';
import type { LeaseClaim } from '#domain/delivery-ledger-port';
import {
  type DeliveryPage,
  type DeliveryRef,
  type EndpointDeliveries,
  type EndpointDelivery,
  UNTOUCHED,
} from '#domain/endpoints/deliveries-port';
import type { DeliveryAttempt, EventRef, WebhookStatus } from '#domain/model';
import type { ListWindow } from '#domain/ports';

/** The deliveries in memory; `items` and `writes` are open for arrangements and assertions. */
export class InMemoryEndpointDeliveries implements EndpointDeliveries {
  /** By `<org>#<IBAN>#<ep_id>#<sequence>`, with the event id each belongs to. */
  readonly items = new Map<string, EndpointDelivery & { readonly id: string }>();
  /** Write operations made, in order. */
  readonly writes: string[] = [];
  /** The keys of each batch read, in order. */
  readonly batchReads: number[] = [];

  async readDelivery(ref: DeliveryRef): Promise<EndpointDelivery> {
    return this.own(ref) ?? UNTOUCHED;
  }

  async takeLease(ref: DeliveryRef, claim: LeaseClaim): Promise<boolean> {
    const { expectedRetries, untilEpochMs, nowEpochMs, dueByEpochMs } = claim;
    this.writes.push('TakeLease');
    const held = this.held(ref);
    if (held === 'other') return false;
    const delivery = held ?? UNTOUCHED;
    const free =
      delivery.status === 'pending' &&
      delivery.retries === expectedRetries &&
      (delivery.leaseUntil === undefined || delivery.leaseUntil < nowEpochMs) &&
      (delivery.nextAttemptAt === undefined || delivery.nextAttemptAt <= dueByEpochMs);
    if (free) this.put(ref, { ...delivery, leaseUntil: untilEpochMs });
    return free;
  }

  async recordAttempt(
    ref: DeliveryRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery> {
    this.writes.push('RecordAttempt');
    const held = this.held(ref);
    // Another event's delivery (a stale ref): nothing recorded.
    if (held === 'other') return UNTOUCHED;
    const delivery = held ?? UNTOUCHED;
    // Only what an attempt keeps: the signature stays with the request.
    const { signature: _sent, ...recorded } = attempt;
    const appended = {
      ...delivery,
      deliveries: [...delivery.deliveries, recorded],
      retries: delivery.retries + 1,
      leaseUntil: undefined,
    };
    // A concurrent consumer settled it first: the attempt is still recorded, the status kept.
    const moves = status === 'success' || delivery.status === 'pending';
    return this.put(ref, moves ? { ...appended, status, nextAttemptAt } : appended);
  }

  async settlePending(ref: DeliveryRef, status: 'skipped' | 'failed'): Promise<boolean> {
    this.writes.push('SettlePending');
    const held = this.held(ref);
    if (held === 'other') return false;
    const delivery = held ?? UNTOUCHED;
    if (delivery.status !== 'pending') return false;
    this.put(ref, { ...delivery, status, leaseUntil: undefined, nextAttemptAt: undefined });
    return true;
  }

  async startCycle(ref: DeliveryRef, routeCycle: number, settled: boolean): Promise<boolean> {
    this.writes.push('StartCycle');
    const held = this.held(ref);
    if (held === 'other') return false;
    const delivery = held ?? UNTOUCHED;
    if ((delivery.routeCycle ?? 0) >= routeCycle || (delivery.status !== 'pending') !== settled) return false;
    this.put(
      ref,
      settled
        ? {
            ...delivery,
            status: 'pending',
            cycleBase: delivery.retries,
            leaseUntil: undefined,
            nextAttemptAt: undefined,
            routeCycle,
          }
        : { ...delivery, routeCycle },
    );
    return true;
  }

  async startOwnCycle(ref: DeliveryRef): Promise<boolean> {
    this.writes.push('StartOwnCycle');
    const delivery = this.own(ref);
    if (delivery === undefined || delivery.status === 'pending') return false;
    // As the adapter: a cycle that sent nothing is replaced uncounted.
    const empty = delivery.retries === delivery.cycleBase;
    if (!empty && delivery.cycles >= MAX_CYCLES) return false;
    this.put(ref, {
      ...delivery,
      status: 'pending',
      cycleBase: delivery.retries,
      cycles: empty ? delivery.cycles : delivery.cycles + 1,
      leaseUntil: undefined,
      nextAttemptAt: undefined,
    });
    return true;
  }

  async readDeliveries(
    ref: EventRef & { readonly sequence: number },
    endpointIds: readonly string[],
  ): Promise<ReadonlyMap<string, EndpointDelivery>> {
    this.batchReads.push(endpointIds.length);
    const found = new Map<string, EndpointDelivery>();
    for (const endpointId of endpointIds) {
      const delivery = this.own({ ...ref, endpointId });
      if (delivery !== undefined) found.set(endpointId, delivery);
    }
    return found;
  }

  async listDeliveries(
    orgId: string,
    account: string,
    endpointId: string,
    window: ListWindow,
  ): Promise<DeliveryPage> {
    const partition = `${orgId}#${account}#${endpointId}#`;
    const all = [...this.items.entries()]
      .filter(([key]) => key.startsWith(partition))
      .map(([key, item]) => ({ id: item.id, sequence: Number(key.slice(partition.length)) }))
      .sort((a, b) => b.sequence - a.sequence);
    return {
      deliveries: all.slice(window.offset, window.offset + window.limit),
      hasMore: all.length > window.offset + window.limit,
    };
  }

  /** The ref's event's delivery, or undefined when untouched. */
  private own(ref: DeliveryRef): EndpointDelivery | undefined {
    const held = this.held(ref);
    return held === 'other' ? undefined : held;
  }

  /** The delivery stored at the ref's place: its event's, `other` (another event's), or none. */
  private held(ref: DeliveryRef): EndpointDelivery | 'other' | undefined {
    const stored = this.items.get(keyOf(ref));
    if (stored === undefined) return undefined;
    if (stored.id !== ref.id) return 'other';
    const { id: _id, ...delivery } = stored;
    return delivery;
  }

  private put(ref: DeliveryRef, delivery: EndpointDelivery): EndpointDelivery {
    this.items.set(keyOf(ref), { ...delivery, id: ref.id });
    return delivery;
  }
}

/** Where a delivery is kept in memory: its event's organization, account, endpoint and sequence. */
export function keyOf(ref: DeliveryRef): string {
  return `${ref.orgId}#${ref.account}#${ref.endpointId}#${ref.sequence}`;
}
