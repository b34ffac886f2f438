/**
 * The in-memory event store's reads across an organization's events (what the DynamoDB adapter reads
 * through the `by-org` index and the sparse status indexes): listing, the next failed or skipped chunk,
 * recovery walks, recent attempts, status pages, erasure and the upgrade's walk, each with the adapter's
 * order and read bounds. Cursors are offsets (or, for recovery, the adapter's index and sort key).
 */
import type { EventRecord, EventRef, WebhookStatus } from '#domain/model';
import type {
  EraseChunk,
  EventListPage,
  EventListRequest,
  IdClaim,
  LegacyChunk,
  RecentAttempts,
  RecoveryChunk,
  RecoveryFilter,
  StatusChunk,
  StatusPage,
} from '#domain/ports';
import type { EventMap } from './event-map';
import type { LogNumbering } from './log-numbering';

/** Events one page or erase chunk examines, as in the adapter. */
const PAGE = 100;
const ERASE_CHUNK = 1_000;

/** The store's state these reads see (and, for erasure and the walks' records, change). */
export interface EventState {
  readonly events: EventMap;
  readonly numbering: LogNumbering;
  readonly claims: Map<string, IdClaim>;
  readonly unindexed: Set<string>;
  readonly recoveryExamined: string[];
  readonly attemptReads: number[];
  readonly indexEntriesBound: number;
}

/** An organization's events through the indexes, in the adapter's order and within its bounds. */
export class OrganizationReads {
  constructor(private readonly state: EventState) {}

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

  async nextFailedOrSkipped(orgId: string, limit: number): Promise<StatusChunk> {
    const found = this.ofOrg(orgId).filter(
      (event) =>
        (event.webhookStatus === 'failed' || event.webhookStatus === 'skipped') &&
        !this.state.unindexed.has(event.id),
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
        .filter((event) => event.webhookStatus === status && !this.state.unindexed.has(event.id))
        .map((event) => ({ event, key: `${event.triggeredAt}#${event.id}` }))
        .filter(({ key }) => key >= `${filter.since}#` && (index !== startIndex || key > after))
        .sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const { event, key } of entries) {
        read++;
        this.state.recoveryExamined.push(event.id);
        if (event.account === filter.account) ids.push(event);
        if (ids.length >= limit || read >= this.state.indexEntriesBound) {
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
    const examined = window.slice(0, this.state.indexEntriesBound);
    const matching = examined.filter((event) => event.account === account);
    const read = matching.slice(0, limit);
    this.state.attemptReads.push(read.length);
    return {
      attempts: read.flatMap((event) => event.deliveries),
      events: read.length,
      complete: matching.length <= limit && window.length <= this.state.indexEntriesBound,
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
      this.state.events.delete(event.id);
      this.state.claims.delete(event.id);
    }
    const next = start + ERASE_CHUNK - doomed.length;
    const done = all.length <= start + ERASE_CHUNK;
    if (done) this.state.numbering.forget(orgId, account);
    return { erased: doomed.length, cursor: done ? undefined : String(next) };
  }

  async legacyEvents(orgId: string, limit: number, cursor?: string): Promise<LegacyChunk> {
    // The adapter's walk: the organization's index entries oldest first, `limit` examined per chunk.
    const start = Number(cursor ?? 0);
    const all = this.ofOrg(orgId).reverse();
    const examined = all.slice(start, start + limit);
    const events = examined.filter((event) => event.sequence === undefined);
    return { events, cursor: all.length > start + limit ? String(start + limit) : undefined };
  }

  /** The organization's events in list order: newest `triggeredAt` first, ties by id descending. */
  private ofOrg(orgId: string): EventRecord[] {
    return [...this.state.events.values()]
      .filter((event) => event.orgId === orgId)
      .sort((a, b) =>
        a.triggeredAt === b.triggeredAt
          ? b.id.localeCompare(a.id)
          : b.triggeredAt.localeCompare(a.triggeredAt),
      );
  }
}
