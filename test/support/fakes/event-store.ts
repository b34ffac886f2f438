/**
 * In-memory {@link EventStore} with the DynamoDB adapter's conditions (lease, due time, pending-only
 * failures, cycles), for use-case tests. Listing is by organization and status only.
 */
import { MAX_ATTEMPTS, MAX_ATTEMPTS_PER_EVENT } from '#config/delivery';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import type {
  EventIdFilter,
  EventListPage,
  EventListRequest,
  EventStore,
  NewEvent,
  PutEventResult,
} from '#domain/ports';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The fake, with direct access to its records for arrangements and assertions. */
export class FakeEventStore implements EventStore {
  readonly records = new Map<string, Mutable<EventRecord>>();
  /** Names of the write operations made, in order (a write per call, as DynamoDB bills them). */
  readonly writes: string[] = [];

  /** Stores a pending event with no attempts (or with `overrides`). */
  seed(event: Partial<EventRecord> & { id: string }): EventRecord {
    const record: Mutable<EventRecord> = {
      orgId: 'org-1',
      account: 'DE89370400440532013000',
      type: 'credit_transfer_status_change',
      triggeredAt: '2026-11-20T09:00:00.000Z',
      body: JSON.stringify({ id: event.id, payload: {} }),
      signature: `sha256=${'0'.repeat(64)}`,
      webhookStatus: 'pending',
      webhookRetries: 0,
      cycleBase: 0,
      deliveries: [],
      ...event,
    };
    this.records.set(event.id, record);
    return { ...record };
  }

  async getEvent(id: string): Promise<EventRecord | undefined> {
    const record = this.records.get(id);
    return record && { ...record, deliveries: [...record.deliveries] };
  }

  async putEvent(event: NewEvent): Promise<PutEventResult> {
    const existing = this.records.get(event.id);
    if (existing) return { created: false, existing: { ...existing } };
    this.writes.push('PutItem');
    return { created: true, event: this.seed({ ...event, webhookStatus: event.webhookStatus }) };
  }

  async listEvents(request: EventListRequest): Promise<EventListPage> {
    const matching = [...this.records.values()]
      .filter((r) => r.orgId === request.orgId && (!request.status || r.webhookStatus === request.status))
      .sort((a, b) => b.triggeredAt.localeCompare(a.triggeredAt) || b.id.localeCompare(a.id));
    const events = matching.slice(request.offset, request.offset + request.limit);
    return { events, hasMore: matching.length > request.offset + request.limit };
  }

  async takeLease(id: string, expectedRetries: number, until: number, now: number, dueBy: number) {
    this.writes.push('TakeLease');
    const r = this.records.get(id);
    const ok =
      r !== undefined &&
      r.webhookStatus === 'pending' &&
      r.webhookRetries === expectedRetries &&
      (r.leaseUntil === undefined || r.leaseUntil < now) &&
      (r.nextAttemptAt === undefined || r.nextAttemptAt <= dueBy);
    if (ok) r.leaseUntil = until;
    return ok;
  }

  async recordAttempt(
    id: string,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord> {
    this.writes.push('RecordAttempt');
    const r = this.records.get(id);
    if (!r) throw new Error(`no event ${id}`);
    r.deliveries = [...r.deliveries, attempt];
    r.webhookRetries += 1;
    r.leaseUntil = undefined;
    if (status === 'success' || r.webhookStatus === 'pending') {
      r.webhookStatus = status;
      r.nextAttemptAt = nextAttemptAt;
    }
    return { ...r };
  }

  async settlePending(id: string, status: 'skipped' | 'failed'): Promise<boolean> {
    this.writes.push('SettlePending');
    const r = this.records.get(id);
    if (r?.webhookStatus !== 'pending') return false;
    r.webhookStatus = status;
    r.leaseUntil = undefined;
    r.nextAttemptAt = undefined;
    return true;
  }

  async startCycle(id: string, orgId: string): Promise<boolean> {
    this.writes.push('StartCycle');
    const r = this.records.get(id);
    const ok =
      r !== undefined &&
      r.orgId === orgId &&
      (r.webhookStatus === 'failed' || r.webhookStatus === 'skipped') &&
      r.webhookRetries <= MAX_ATTEMPTS_PER_EVENT - MAX_ATTEMPTS;
    if (!ok) return false;
    r.webhookStatus = 'pending';
    r.cycleBase = r.webhookRetries;
    r.leaseUntil = undefined;
    r.nextAttemptAt = undefined;
    return true;
  }

  async listEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    until?: string,
    filter: EventIdFilter = {},
  ) {
    return [...this.records.values()]
      .filter(
        (r) =>
          r.orgId === orgId &&
          statuses.includes(r.webhookStatus) &&
          (!until || r.triggeredAt <= until) &&
          (!filter.since || r.triggeredAt >= filter.since) &&
          (!filter.account || r.account === filter.account),
      )
      .sort((a, b) => b.triggeredAt.localeCompare(a.triggeredAt))
      .map((r) => r.id);
  }
}
