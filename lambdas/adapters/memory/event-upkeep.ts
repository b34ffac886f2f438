/**
 * The in-memory operator's walks over an organization's events (`EventUpkeep`), through what the DynamoDB
 * adapter reads with the `by-org` index and the sparse status indexes: the next failed or skipped chunk,
 * recovery walks, status pages, erasure, the status-index upgrade and the move of events stored before
 * account logs, each with the adapter's order and read bounds. Cursors are offsets (or, for recovery,
 * the adapter's index and sort key).
 */
import { ERASE_CHUNK } from '#config/limits';
import type { EventRef, WebhookStatus } from '#domain/model';
import type {
  EraseChunk,
  EventUpkeep,
  LegacyChunk,
  MoveResult,
  RecoveryChunk,
  RecoveryFilter,
  StatusChunk,
  StatusPage,
} from '#domain/ports';
import { withSequence } from '#domain/webhook-body';
import type { EventTable } from './event-table';

/** Events one page examines, as in the adapter. */
const PAGE = 100;

/** The operator's walks, in memory. */
export class InMemoryEventUpkeep implements EventUpkeep {
  constructor(private readonly table: EventTable) {}

  async nextFailedOrSkipped(orgId: string, limit: number): Promise<StatusChunk> {
    const found = this.table
      .ofOrg(orgId)
      .filter(
        (event) =>
          (event.webhookStatus === 'failed' || event.webhookStatus === 'skipped') &&
          !this.table.unindexed.has(event.id),
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
      const entries = this.table
        .ofOrg(orgId)
        .filter((event) => event.webhookStatus === status && !this.table.unindexed.has(event.id))
        .map((event) => ({ event, key: `${event.triggeredAt}#${event.id}` }))
        .filter(({ key }) => key >= `${filter.since}#` && (index !== startIndex || key > after))
        .sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const { event, key } of entries) {
        read++;
        this.table.recoveryExamined.push(event.id);
        if (event.account === filter.account) ids.push(event);
        if (ids.length >= limit || read >= this.table.indexEntriesBound) {
          return { events: ids, cursor: JSON.stringify([index, key]) };
        }
      }
    }
    return { events: ids };
  }

  async pageEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    cursor?: string,
    until?: string,
  ): Promise<StatusPage> {
    const start = Number(cursor ?? 0);
    const window = this.table
      .ofOrg(orgId)
      .filter((event) => until === undefined || event.triggeredAt <= until);
    const page = window.slice(start, start + PAGE);
    const events = page.filter((event) => statuses.includes(event.webhookStatus));
    const more = window.length > start + PAGE;
    return { events, cursor: more ? String(start + PAGE) : undefined };
  }

  async eraseAccountEvents(orgId: string, account: string, cursor?: string): Promise<EraseChunk> {
    const start = Number(cursor ?? 0);
    const all = this.table.ofOrg(orgId);
    const examined = all.slice(start, start + ERASE_CHUNK);
    const doomed = examined.filter((event) => event.account === account);
    for (const event of doomed) {
      this.table.events.delete(event.id);
      this.table.claims.delete(event.id);
    }
    const next = start + ERASE_CHUNK - doomed.length;
    const done = all.length <= start + ERASE_CHUNK;
    if (done) this.table.numbering.forget(orgId, account);
    return { erased: doomed.length, cursor: done ? undefined : String(next) };
  }

  async indexStatus(ref: EventRef): Promise<boolean> {
    const status = this.table.eventAt(ref)?.webhookStatus;
    if (status !== 'failed' && status !== 'skipped') return false;
    return this.table.unindexed.delete(ref.id);
  }

  async legacyEvents(orgId: string, limit: number, cursor?: string): Promise<LegacyChunk> {
    // The adapter's walk: the organization's index entries oldest first, `limit` examined per chunk.
    const start = Number(cursor ?? 0);
    const all = this.table.ofOrg(orgId).reverse();
    const examined = all.slice(start, start + limit);
    const events = examined.filter((event) => event.sequence === undefined);
    return { events, cursor: all.length > start + limit ? String(start + limit) : undefined };
  }

  async moveToLog(ref: EventRef, sequence: number): Promise<MoveResult> {
    this.table.writes.push('MoveToLog');
    const old = this.table.events.get(ref.id);
    if (old === undefined || old.sequence !== undefined) return 'gone';
    if (old.webhookStatus === 'pending') return 'pending';
    if (this.table.events.at(old.orgId, old.account, sequence)) return 'taken';
    this.table.events.set(ref.id, { ...old, sequence, body: withSequence(old.body, sequence) });
    this.table.claims.set(ref.id, {
      ...ref,
      account: old.account,
      sequence,
      owner: 'migration',
      claimedAt: 0,
    });
    return 'moved';
  }
}
