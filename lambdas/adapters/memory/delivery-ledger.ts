/**
 * The in-memory delivery state of events (`DeliveryLedger`), with the DynamoDB adapter's conditions: a
 * lease needs a pending event with the expected attempt count, no live lease and a due next attempt; a
 * failure only moves a pending event while a success always wins; an attempt that sent a request leaves
 * its `signature` on the event; a next attempt is brought forward only for the organization's pending
 * event without a live lease; and a new cycle starts only from `failed`/`skipped`/`success`, counted while
 * fewer than `MAX_CYCLES` are (one after a cycle that sent nothing replaces it uncounted). An attempt that
 * takes the event past `itemBytesLimit` (as JSON) is refused as DynamoDB refuses an item over 400 KB.
 */
import { MAX_CYCLES } from '#delivery/retry-rule';
import type { DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from '#domain/model';
import {
  type DeliveryLedger,
  EventItemFullError,
  type EventLog,
  type LeaseClaim,
  type LogWindow,
} from '#domain/ports';
import { InMemoryEventLog, InMemoryEventReads } from './event-log';
import type { EventTable } from './event-table';
import { firstItems } from './log-reads';

/** Whether `event` is pending with no lease live at `nowEpochMs`: what a claim or a change of its due time needs. */
function unleasedPending(event: EventRecord | undefined, nowEpochMs: number): event is EventRecord {
  return (
    event !== undefined &&
    event.webhookStatus === 'pending' &&
    (event.leaseUntil === undefined || event.leaseUntil < nowEpochMs)
  );
}

/** Each event's delivery state in memory. */
export class InMemoryDeliveryLedger extends InMemoryEventReads implements DeliveryLedger {
  /** @param log - where the order gate's reads of a log go (the log role over the same table) */
  constructor(
    table: EventTable,
    private readonly log: Pick<EventLog, 'readLog'> = new InMemoryEventLog(table),
  ) {
    super(table);
  }

  async readLogEntries(orgId: string, account: string, after: number, limit: number): Promise<LogWindow> {
    this.table.logEntryReads.push(limit);
    const page = await this.log.readLog(orgId, account, { afterSequence: after, limit });
    return firstItems(page, limit, this.table.logEntryPageItems);
  }

  async voidSequence(orgId: string, account: string, sequence: number, at: number): Promise<boolean> {
    return this.table.numbering.voidSequence(orgId, account, sequence, at);
  }

  async takeLease(ref: EventRef, claim: LeaseClaim): Promise<boolean> {
    this.table.writes.push('TakeLease');
    const event = this.table.eventAt(ref);
    const free =
      unleasedPending(event, claim.nowEpochMs) &&
      event.webhookRetries === claim.expectedRetries &&
      (event.nextAttemptAt === undefined || event.nextAttemptAt <= claim.dueByEpochMs);
    if (free) this.table.events.set(ref.id, { ...event, leaseUntil: claim.untilEpochMs });
    return free;
  }

  async recordAttempt(
    ref: EventRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord> {
    this.table.writes.push('RecordAttempt');
    const event = this.table.eventAt(ref);
    if (!event) throw new Error(`no event ${ref.id} (condition failed)`);
    // The event keeps the latest X-Signature only, as the adapter stores it.
    const { signature, ...recorded } = attempt;
    const appended = {
      ...event,
      ...(signature === undefined ? {} : { signature }),
      deliveries: [...event.deliveries, recorded],
      webhookRetries: event.webhookRetries + 1,
      leaseUntil: undefined,
    };
    // A concurrent consumer settled the event first: the attempt is still recorded, the status kept.
    const moves = status === 'success' || event.webhookStatus === 'pending';
    const next: EventRecord = moves ? { ...appended, webhookStatus: status, nextAttemptAt } : appended;
    const limit = this.table.itemBytesLimit;
    if (limit !== undefined && Buffer.byteLength(JSON.stringify(next)) > limit) {
      throw new EventItemFullError(ref.id);
    }
    this.table.events.set(ref.id, next);
    return next;
  }

  async bringForward(ref: EventRef, orgId: string, nowEpochMs: number): Promise<boolean> {
    this.table.writes.push('BringForward');
    const event = this.table.eventAt(ref);
    const allowed = unleasedPending(event, nowEpochMs) && event.orgId === orgId;
    if (allowed) this.table.events.set(ref.id, { ...event, nextAttemptAt: nowEpochMs });
    return allowed;
  }

  async markWaiting(ref: EventRef, nowEpochMs: number): Promise<boolean> {
    this.table.writes.push('MarkWaiting');
    const event = this.table.eventAt(ref);
    const allowed = unleasedPending(event, nowEpochMs);
    if (allowed) {
      this.table.events.set(ref.id, { ...event, nextAttemptAt: event.nextAttemptAt ?? nowEpochMs });
    }
    return allowed;
  }

  async recordRoutes(ref: EventRef, routes: readonly string[]): Promise<readonly string[] | undefined> {
    this.table.writes.push('RecordRoutes');
    const event = this.table.eventAt(ref);
    if (event === undefined) return undefined;
    if (event.routes !== undefined) return event.routes;
    if (event.webhookRetries > 0) return undefined;
    this.table.events.set(ref.id, { ...event, routes: [...routes] });
    return routes;
  }

  async settleRoute(
    ref: EventRef,
    endpointId: string,
    status: 'success' | 'failed' | 'skipped',
    attempts: number,
  ): Promise<WebhookStatus | undefined> {
    this.table.writes.push('SettleRoute');
    const event = this.table.eventAt(ref);
    if (event?.routes === undefined) return undefined;
    const counts = this.table.routeCounts.get(event.id) ?? {
      settled: new Set<string>(),
      failed: new Set<string>(),
      skipped: new Set<string>(),
    };
    if (counts.settled.has(endpointId) || !event.routes.includes(endpointId)) return event.webhookStatus;
    counts.settled.add(endpointId);
    if (status === 'failed') counts.failed.add(endpointId);
    if (status === 'skipped') counts.skipped.add(endpointId);
    this.table.routeCounts.set(event.id, counts);
    const failedNow = status === 'failed';
    const last =
      counts.settled.size >= event.routes.length && event.webhookStatus === 'pending' && !failedNow;
    if (last) this.table.writes.push('SettleRouteLast');
    const webhookStatus: WebhookStatus = failedNow
      ? 'failed'
      : last
        ? counts.skipped.size >= event.routes.length
          ? 'skipped'
          : 'success'
        : event.webhookStatus;
    const settles = failedNow || last;
    this.table.events.set(event.id, {
      ...event,
      webhookRetries: event.webhookRetries + attempts,
      webhookStatus,
      ...(settles ? { leaseUntil: undefined, nextAttemptAt: undefined } : {}),
    });
    return webhookStatus;
  }

  async reopenRoute(ref: EventRef, endpointId: string): Promise<boolean> {
    this.table.writes.push('ReopenRoute');
    const event = this.table.eventAt(ref);
    if (event?.routes === undefined) return false;
    const counts = this.table.routeCounts.get(event.id);
    for (const set of counts === undefined ? [] : [counts.settled, counts.failed, counts.skipped]) {
      set.delete(endpointId);
    }
    // As the adapter: still failed while another endpoint failed for good.
    if ((counts?.failed.size ?? 0) === 0) {
      this.table.events.set(event.id, { ...event, webhookStatus: 'pending' });
    }
    return true;
  }

  async settlePending(ref: EventRef, status: 'skipped' | 'failed'): Promise<boolean> {
    this.table.writes.push('SettlePending');
    const event = this.table.eventAt(ref);
    if (event?.webhookStatus !== 'pending') return false;
    this.table.events.set(ref.id, {
      ...event,
      webhookStatus: status,
      leaseUntil: undefined,
      nextAttemptAt: undefined,
    });
    return true;
  }

  async startCycle(ref: EventRef, orgId: string): Promise<boolean> {
    this.table.writes.push('StartCycle');
    const event = this.table.eventAt(ref);
    const id = ref.id;
    if (event === undefined || event.orgId !== orgId || event.webhookStatus === 'pending') return false;
    // As the adapter: a cycle that sent nothing is replaced uncounted, by a second write.
    const empty = event.webhookRetries === event.cycleBase;
    if (empty) this.table.writes.push('RestartEmptyCycle');
    if (!empty && event.cycles >= MAX_CYCLES) {
      if (event.webhookStatus !== 'success' && !this.table.unindexed.has(id)) {
        // As the adapter: an event with no cycle left leaves the status indexes.
        this.table.writes.push('LeaveStatusIndexes');
        this.table.unindexed.add(id);
      }
      return false;
    }
    this.table.events.set(id, {
      ...event,
      webhookStatus: 'pending',
      cycleBase: event.webhookRetries,
      cycles: empty ? event.cycles : event.cycles + 1,
      leaseUntil: undefined,
      nextAttemptAt: undefined,
      routeCycle: (event.routeCycle ?? 0) + 1,
    });
    // As the adapter: a fanned-out event's aggregate starts again.
    this.table.routeCounts.delete(id);
    return true;
  }
}
