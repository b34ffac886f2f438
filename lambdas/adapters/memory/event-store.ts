import { MAX_ATTEMPTS } from '#config/delivery';
import { MAX_INDEX_ENTRIES_READ } from '#config/limits';
import { MAX_ATTEMPTS_PER_EVENT } from '#domain/delivery/policy';
import type { DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from '#domain/model';
import type {
  ClaimResult,
  EventStore,
  IdClaim,
  InsertEventResult,
  LogPage,
  LogRead,
  LogWindow,
  MoveResult,
  NewEvent,
} from '#domain/ports';
import { withSequence } from '#domain/webhook-body';
import { EventMap } from './event-map';
import { LogNumbering } from './log-numbering';
import { firstItems, readLog } from './log-reads';
import { type EventState, OrganizationReads } from './organization-reads';

/**
 * {@link EventStore} in memory, with the conditions of the DynamoDB adapter (`DynamoEventStore`): an id is
 * claimed once (`claims`; a seeded event without a sequence is an old-layout event, its own claim), a
 * sequence of a log holds one event or void (heads and voids: `log-numbering.ts`), a claim moves only for its owner, a read by ref finds the event only
 * at its place, a lease needs a pending event with the expected attempt count, no live lease and a due
 * next attempt, a failure only moves a pending event while a success always wins, an attempt that sent a
 * request leaves its `signature` on the event, a next attempt is brought forward only for the
 * organization's pending event without a live lease, and a new cycle starts only from
 * `failed`/`skipped` within the per-event attempt cap. Listing returns whole records (the
 * adapter returns summaries); the order is the adapter's: newest `triggeredAt` first, ties by id
 * descending. `events` is public so tests can seed and inspect state; `expiresAt` keeps what
 * `putEvent` was given; `writes` names every write call in order (one DynamoDB write each, as billed).
 * Every `failed`/`skipped` event is in its sparse status index except the ids in `unindexed` (events
 * recorded before the indexes existed, or whose cycles are used up). Reads across an organization's
 * events are in `organization-reads.ts`.
 */
export class InMemoryEventStore implements EventStore, EventState {
  readonly events = new EventMap();
  /** Id claims by id (the adapter's `EVENT#<id>` items that are not old-layout events). */
  readonly claims = new Map<string, IdClaim>();
  readonly expiresAt = new Map<string, number | undefined>();
  readonly unindexed = new Set<string>();
  readonly writes: string[] = [];
  /** Ids of the status-index entries recovery walks examined, in order (each read is one entry). */
  readonly recoveryExamined: string[] = [];
  /** How many events each `recentAttempts` call read the attempts of (one batch read each). */
  readonly attemptReads: number[] = [];
  /** The `Limit` of each order-gate read of a log. */
  readonly logEntryReads: number[] = [];
  /** Index entries one recovery step or summary may examine (the adapter's `MAX_INDEX_ENTRIES_READ`). */
  indexEntriesBound = MAX_INDEX_ENTRIES_READ;
  /** The logs' heads and voids (`log-numbering.ts`). */
  readonly numbering = new LogNumbering(this.events, this.writes);
  private readonly reads = new OrganizationReads(this);
  readonly listEvents: EventStore['listEvents'] = (request) => this.reads.listEvents(request);
  readonly nextFailedOrSkipped: EventStore['nextFailedOrSkipped'] = (orgId, limit) =>
    this.reads.nextFailedOrSkipped(orgId, limit);
  readonly recoveryChunk: EventStore['recoveryChunk'] = (orgId, filter, limit, cursor) =>
    this.reads.recoveryChunk(orgId, filter, limit, cursor);
  readonly recentAttempts: EventStore['recentAttempts'] = (orgId, account, since, limit) =>
    this.reads.recentAttempts(orgId, account, since, limit);
  readonly pageEventIdsByStatus: EventStore['pageEventIdsByStatus'] = (orgId, statuses, cursor, until) =>
    this.reads.pageEventIdsByStatus(orgId, statuses, cursor, until);
  readonly eraseAccountEvents: EventStore['eraseAccountEvents'] = (orgId, account, cursor) =>
    this.reads.eraseAccountEvents(orgId, account, cursor);
  readonly legacyEvents: EventStore['legacyEvents'] = (orgId, limit, cursor) =>
    this.reads.legacyEvents(orgId, limit, cursor);

  /** Stores a pending event with no attempts (or with the given fields), as if published. */
  seed(event: Partial<EventRecord> & { id: string }): EventRecord {
    const record: EventRecord = {
      orgId: 'org-1',
      account: 'DE89370400440532013000',
      type: 'credit_transfer_status_change',
      triggeredAt: '2026-11-20T09:00:00.000Z',
      body: JSON.stringify({ id: event.id, payload: {} }),
      webhookStatus: 'pending',
      webhookRetries: 0,
      cycleBase: 0,
      deliveries: [],
      ...event,
    };
    this.events.set(event.id, record);
    return record;
  }

  async getEvent(id: string): Promise<EventRecord | undefined> {
    const claim = this.claims.get(id);
    return claim === undefined ? this.events.get(id) : this.readEventNow(claim);
  }

  async readEvent(ref: EventRef): Promise<EventRecord | undefined> {
    return this.readEventNow(ref);
  }

  async latestSequence(orgId: string, account: string): Promise<number> {
    return this.numbering.latest(orgId, account);
  }

  readonly readTail: EventStore['readTail'] = async (orgId, account) => this.numbering.tail(orgId, account);
  readonly takeTicket: EventStore['takeTicket'] = async (orgId, account, count, at) =>
    this.numbering.takeTicket(orgId, account, count, at);
  readonly takeTicketAbove: EventStore['takeTicketAbove'] = async (orgId, account, count, at, above) =>
    this.numbering.takeTicketAbove(orgId, account, count, at, above);
  readonly leaveHot: EventStore['leaveHot'] = async (orgId, account, head) =>
    this.numbering.leaveHot(orgId, account, head);
  readonly voidSequence: EventStore['voidSequence'] = async (orgId, account, sequence, at) =>
    this.numbering.voidSequence(orgId, account, sequence, at);

  async readClaims(ids: readonly string[]): Promise<Map<string, Exclude<ClaimResult, { claimed: true }>>> {
    return new Map(ids.flatMap((id) => [this.claimAt(id)].flatMap((found) => (found ? [[id, found]] : []))));
  }

  async readClaim(id: string): Promise<Exclude<ClaimResult, { claimed: true }> | undefined> {
    return this.claimAt(id);
  }

  async claimId(claim: IdClaim): Promise<ClaimResult> {
    // Checked and written with no await between, as DynamoDB's conditional put is atomic.
    const existing = this.claimAt(claim.id);
    if (existing) return existing;
    this.writes.push('PutClaim');
    this.claims.set(claim.id, claim);
    return { claimed: true };
  }

  async moveClaim(owner: string, claim: IdClaim): Promise<boolean> {
    this.writes.push('MoveClaim');
    if (this.claims.get(claim.id)?.owner !== owner) return false;
    this.claims.set(claim.id, claim);
    return true;
  }

  async insertEvent(event: NewEvent): Promise<InsertEventResult> {
    this.writes.push('PutItem');
    const occupant = this.events.at(event.orgId, event.account, event.sequence);
    if (occupant) return { created: false, occupant: occupant.id };
    if (this.numbering.isVoid(event.orgId, event.account, event.sequence)) return { created: false };
    const { expiresAt, ...fields } = event;
    const record: EventRecord = { ...fields, webhookRetries: 0, cycleBase: 0, deliveries: [] };
    // Keyed by id, as the tests inspect them; a second event with an id is a bug the tests must see.
    if (this.events.has(event.id)) throw new Error(`fake: a second event with id ${event.id}`);
    this.events.set(event.id, record);
    this.expiresAt.set(event.id, expiresAt);
    return { created: true, event: record };
  }

  async readLog(orgId: string, account: string, read: LogRead): Promise<LogPage> {
    return readLog(this.events, this.numbering, orgId, account, read);
  }

  async readLogEntries(orgId: string, account: string, after: number, limit: number): Promise<LogWindow> {
    this.logEntryReads.push(limit);
    // Through `readLog`, so a test that holds the log's reads holds this one too.
    return firstItems(await this.readLog(orgId, account, { afterSequence: after, limit }), limit);
  }

  async takeLease(
    ref: EventRef,
    expectedRetries: number,
    untilEpochMs: number,
    nowEpochMs: number,
    dueByEpochMs: number,
  ): Promise<boolean> {
    this.writes.push('TakeLease');
    const event = this.readEventNow(ref);
    const id = ref.id;
    const free =
      event !== undefined &&
      event.webhookStatus === 'pending' &&
      event.webhookRetries === expectedRetries &&
      (event.leaseUntil === undefined || event.leaseUntil < nowEpochMs) &&
      (event.nextAttemptAt === undefined || event.nextAttemptAt <= dueByEpochMs);
    if (free) this.events.set(id, { ...event, leaseUntil: untilEpochMs });
    return free;
  }

  async recordAttempt(
    ref: EventRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord> {
    this.writes.push('RecordAttempt');
    const event = this.readEventNow(ref);
    const id = ref.id;
    if (!event) throw new Error(`no event ${id} (condition failed)`);
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
    this.events.set(id, next);
    return next;
  }

  async bringForward(ref: EventRef, orgId: string, nowEpochMs: number): Promise<boolean> {
    this.writes.push('BringForward');
    const event = this.readEventNow(ref);
    const id = ref.id;
    const allowed =
      event !== undefined &&
      event.orgId === orgId &&
      event.webhookStatus === 'pending' &&
      (event.leaseUntil === undefined || event.leaseUntil < nowEpochMs);
    if (allowed) this.events.set(id, { ...event, nextAttemptAt: nowEpochMs });
    return allowed;
  }

  async markWaiting(ref: EventRef, nowEpochMs: number): Promise<boolean> {
    this.writes.push('MarkWaiting');
    const event = this.readEventNow(ref);
    const allowed =
      event !== undefined &&
      event.webhookStatus === 'pending' &&
      (event.leaseUntil === undefined || event.leaseUntil < nowEpochMs);
    if (allowed) this.events.set(ref.id, { ...event, nextAttemptAt: event.nextAttemptAt ?? nowEpochMs });
    return allowed;
  }

  async settlePending(ref: EventRef, status: 'skipped' | 'failed'): Promise<boolean> {
    this.writes.push('SettlePending');
    const event = this.readEventNow(ref);
    const id = ref.id;
    if (event?.webhookStatus !== 'pending') return false;
    this.events.set(id, { ...event, webhookStatus: status, leaseUntil: undefined, nextAttemptAt: undefined });
    return true;
  }

  async startCycle(ref: EventRef, orgId: string): Promise<boolean> {
    this.writes.push('StartCycle');
    const event = this.readEventNow(ref);
    const id = ref.id;
    const allowed =
      event !== undefined &&
      event.orgId === orgId &&
      (event.webhookStatus === 'failed' ||
        event.webhookStatus === 'skipped' ||
        event.webhookStatus === 'success') &&
      event.webhookRetries <= MAX_ATTEMPTS_PER_EVENT - MAX_ATTEMPTS;
    const usedUp =
      event !== undefined &&
      event.orgId === orgId &&
      (event.webhookStatus === 'failed' || event.webhookStatus === 'skipped') &&
      event.webhookRetries > MAX_ATTEMPTS_PER_EVENT - MAX_ATTEMPTS;
    if (usedUp && !this.unindexed.has(id)) {
      // As the adapter: an event with no cycle left leaves the status indexes.
      this.writes.push('LeaveStatusIndexes');
      this.unindexed.add(id);
    }
    if (allowed) {
      this.events.set(id, {
        ...event,
        webhookStatus: 'pending',
        cycleBase: event.webhookRetries,
        leaseUntil: undefined,
        nextAttemptAt: undefined,
      });
    }
    return allowed;
  }

  async indexStatus(ref: EventRef): Promise<boolean> {
    const status = this.readEventNow(ref)?.webhookStatus;
    if (status !== 'failed' && status !== 'skipped') return false;
    return this.unindexed.delete(ref.id);
  }

  async moveToLog(ref: EventRef, sequence: number): Promise<MoveResult> {
    this.writes.push('MoveToLog');
    const old = this.events.get(ref.id);
    if (old === undefined || old.sequence !== undefined) return 'gone';
    if (old.webhookStatus === 'pending') return 'pending';
    if (this.events.at(old.orgId, old.account, sequence)) return 'taken';
    this.events.set(ref.id, { ...old, sequence, body: withSequence(old.body, sequence) });
    this.claims.set(ref.id, { ...ref, account: old.account, sequence, owner: 'migration', claimedAt: 0 });
    return 'moved';
  }

  /** What is at an id's key: its claim, or an old-layout event. */
  private claimAt(id: string): Exclude<ClaimResult, { claimed: true }> | undefined {
    const claim = this.claims.get(id);
    if (claim) return { claimed: false, existing: claim };
    const legacy = this.events.get(id);
    return legacy && legacy.sequence === undefined ? { claimed: false, legacy } : undefined;
  }

  /** The event at the ref's place: the adapter's key is (organization, account, sequence), or the id alone. */
  private readEventNow(ref: EventRef): EventRecord | undefined {
    // Whatever occupies the place, as the adapter's key read answers, even an event of another id.
    if (ref.sequence !== undefined) return this.events.at(ref.orgId, ref.account, ref.sequence);
    const event = this.events.get(ref.id);
    return event?.sequence === undefined ? event : undefined;
  }
}
