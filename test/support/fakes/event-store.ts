import { MAX_ATTEMPTS } from '#config/delivery';
import { MAX_INDEX_ENTRIES_READ } from '#config/limits';
import { MAX_ATTEMPTS_PER_EVENT } from '#domain/delivery/policy';
import type { DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from '#domain/model';
import type {
  ClaimResult,
  EraseChunk,
  EventListPage,
  EventListRequest,
  EventStore,
  IdClaim,
  InsertEventResult,
  LegacyChunk,
  MoveResult,
  NewEvent,
  RecentAttempts,
  RecoveryChunk,
  RecoveryFilter,
  StatusChunk,
  StatusPage,
} from '#domain/ports';
import { withSequence } from '#domain/webhook-body';

/** Events one page or erase chunk examines, as in the adapter. */
const PAGE = 100;
const ERASE_CHUNK = 1_000;

/**
 * {@link EventStore} in memory, with the conditions of the DynamoDB adapter (`DynamoEventStore`): an id is
 * claimed once (`claims`; a seeded event without a sequence is an old-layout event, its own claim), a
 * sequence of a log holds one event, a claim moves only for its owner, a read by ref finds the event only
 * at its place, a lease needs a pending event with the expected attempt count, no live lease and a due
 * next attempt, a failure only moves a pending event while a success always wins, an attempt that sent a
 * request leaves its `signature` on the event, a next attempt is brought forward only for the
 * organization's pending event without a live lease, and a new cycle starts only from
 * `failed`/`skipped` within the per-event attempt cap. Listing returns whole records (the
 * adapter returns summaries); the order is the adapter's: newest `triggeredAt` first, ties by id
 * descending. `events` is public so tests can seed and inspect state; `expiresAt` keeps what
 * `putEvent` was given; `writes` names every write call in order (one DynamoDB write each, as billed).
 * Every `failed`/`skipped` event is in its sparse status index except the ids in `unindexed` (events
 * recorded before the indexes existed, or whose cycles are used up); cursors are offsets.
 */
export class InMemoryEventStore implements EventStore {
  readonly events = new Map<string, EventRecord>();
  /** Id claims by id (the adapter's `EVENT#<id>` items that are not old-layout events). */
  readonly claims = new Map<string, IdClaim>();
  readonly expiresAt = new Map<string, number | undefined>();
  readonly unindexed = new Set<string>();
  readonly writes: string[] = [];
  /** Ids of the status-index entries recovery walks examined, in order (each read is one entry). */
  readonly recoveryExamined: string[] = [];
  /** How many events each `recentAttempts` call read the attempts of (one batch read each). */
  readonly attemptReads: number[] = [];
  /** Index entries one recovery step or summary may examine (the adapter's `MAX_INDEX_ENTRIES_READ`). */
  indexEntriesBound = MAX_INDEX_ENTRIES_READ;

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
    return Math.max(0, ...this.log(orgId, account).map((event) => event.sequence ?? 0));
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
    const occupant = this.log(event.orgId, event.account).find((e) => e.sequence === event.sequence);
    if (occupant) return { created: false, occupant: occupant.id };
    const { expiresAt, ...fields } = event;
    const record: EventRecord = { ...fields, webhookRetries: 0, cycleBase: 0, deliveries: [] };
    // Keyed by id, as the tests inspect them; a second event with an id is a bug the tests must see.
    if (this.events.has(event.id)) throw new Error(`fake: a second event with id ${event.id}`);
    this.events.set(event.id, record);
    this.expiresAt.set(event.id, expiresAt);
    return { created: true, event: record };
  }

  async readLog(orgId: string, account: string, after: number, limit: number): Promise<EventRecord[]> {
    return this.log(orgId, account)
      .filter((event) => (event.sequence ?? 0) > after)
      .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0))
      .slice(0, limit);
  }

  async listEvents(request: EventListRequest): Promise<EventListPage> {
    const matching = this.ofOrg(request.orgId).filter(
      (event) =>
        (request.account === undefined || event.account === request.account) &&
        (request.type === undefined || event.type === request.type) &&
        (request.status === undefined || event.webhookStatus === request.status) &&
        (request.since === undefined || event.triggeredAt >= request.since) &&
        (request.until === undefined || event.triggeredAt <= request.until),
    );
    const end = request.offset + request.limit;
    return { events: matching.slice(request.offset, end), hasMore: matching.length > end };
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

  async nextFailedOrSkipped(orgId: string, limit: number): Promise<StatusChunk> {
    const found = this.ofOrg(orgId).filter(
      (event) =>
        (event.webhookStatus === 'failed' || event.webhookStatus === 'skipped') &&
        !this.unindexed.has(event.id),
    );
    return { events: found.slice(0, limit), more: found.length > limit };
  }

  async recoveryChunk(
    orgId: string,
    filter: RecoveryFilter,
    limit: number,
    cursor?: string,
  ): Promise<RecoveryChunk> {
    // The adapter's walk: the failed index, then the skipped one, each oldest first from `since`; the
    // cursor is the index and the sort key (`<triggered_at>#<id>`) of the last entry examined.
    const [startIndex = 0, after = ''] = cursor === undefined ? [] : (JSON.parse(cursor) as [number, string]);
    const ids: EventRef[] = [];
    let read = 0;
    for (let index = startIndex; index < 2; index++) {
      const status = index === 0 ? 'failed' : 'skipped';
      const entries = this.ofOrg(orgId)
        .filter((event) => event.webhookStatus === status && !this.unindexed.has(event.id))
        .map((event) => ({ event, key: `${event.triggeredAt}#${event.id}` }))
        .filter(({ key }) => key >= `${filter.since}#` && (index !== startIndex || key > after))
        .sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const { event, key } of entries) {
        read++;
        this.recoveryExamined.push(event.id);
        if (event.account === filter.account) ids.push(event);
        if (ids.length >= limit || read >= this.indexEntriesBound) {
          return { events: ids, cursor: JSON.stringify([index, key]) };
        }
      }
    }
    return { events: ids };
  }

  async recentAttempts(
    orgId: string,
    account: string,
    since: string,
    limit: number,
  ): Promise<RecentAttempts> {
    // The adapter's one Query: the window's entries newest first, at most the read bound of them.
    const window = this.ofOrg(orgId).filter((event) => event.triggeredAt >= since);
    const examined = window.slice(0, this.indexEntriesBound);
    const matching = examined.filter((event) => event.account === account);
    const read = matching.slice(0, limit);
    this.attemptReads.push(read.length);
    return {
      attempts: read.flatMap((event) => event.deliveries),
      events: read.length,
      complete: matching.length <= limit && window.length <= this.indexEntriesBound,
    };
  }

  async pageEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    cursor?: string,
    until?: string,
  ): Promise<StatusPage> {
    const start = Number(cursor ?? 0);
    const window = this.ofOrg(orgId).filter((event) => until === undefined || event.triggeredAt <= until);
    const page = window.slice(start, start + PAGE);
    const events = page.filter((event) => statuses.includes(event.webhookStatus));
    const more = window.length > start + PAGE;
    return { events, cursor: more ? String(start + PAGE) : undefined };
  }

  async eraseAccountEvents(orgId: string, account: string, cursor?: string): Promise<EraseChunk> {
    const start = Number(cursor ?? 0);
    const all = this.ofOrg(orgId);
    const examined = all.slice(start, start + ERASE_CHUNK);
    const doomed = examined.filter((event) => event.account === account);
    for (const event of doomed) {
      this.events.delete(event.id);
      this.claims.delete(event.id);
    }
    const next = start + ERASE_CHUNK - doomed.length;
    return { erased: doomed.length, cursor: all.length > start + ERASE_CHUNK ? String(next) : undefined };
  }

  async indexStatus(ref: EventRef): Promise<boolean> {
    const status = this.readEventNow(ref)?.webhookStatus;
    if (status !== 'failed' && status !== 'skipped') return false;
    return this.unindexed.delete(ref.id);
  }

  async legacyEvents(orgId: string, limit: number, cursor?: string): Promise<LegacyChunk> {
    // The adapter's walk: the organization's index entries oldest first, `limit` examined per chunk.
    const start = Number(cursor ?? 0);
    const all = this.ofOrg(orgId).reverse();
    const examined = all.slice(start, start + limit);
    const events = examined.filter((event) => event.sequence === undefined);
    return { events, cursor: all.length > start + limit ? String(start + limit) : undefined };
  }

  async moveToLog(ref: EventRef, sequence: number): Promise<MoveResult> {
    this.writes.push('MoveToLog');
    const old = this.events.get(ref.id);
    if (old === undefined || old.sequence !== undefined) return 'gone';
    if (old.webhookStatus === 'pending') return 'pending';
    if (this.log(old.orgId, old.account).some((event) => event.sequence === sequence)) return 'taken';
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
    const event = this.events.get(ref.id);
    const there =
      event !== undefined &&
      event.sequence === ref.sequence &&
      (ref.sequence === undefined || (event.orgId === ref.orgId && event.account === ref.account));
    return there ? event : undefined;
  }

  /** The account's log: its events with a sequence. */
  private log(orgId: string, account: string): EventRecord[] {
    return [...this.events.values()].filter(
      (event) => event.orgId === orgId && event.account === account && event.sequence !== undefined,
    );
  }

  /** The organization's events in list order. */
  private ofOrg(orgId: string): EventRecord[] {
    return [...this.events.values()]
      .filter((event) => event.orgId === orgId)
      .sort((a, b) =>
        a.triggeredAt === b.triggeredAt
          ? b.id.localeCompare(a.id)
          : b.triggeredAt.localeCompare(a.triggeredAt),
      );
  }
}
