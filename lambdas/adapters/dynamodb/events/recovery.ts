/**
 * A recovery's walk (enabling an endpoint with `recover_since`) through the sparse `failed-by-org` and
 * `skipped-by-org` indexes: oldest first from `since`, the failed index then the skipped one, one
 * account's events picked from the entries on the way. Its cursor is the last entry examined, so every
 * step goes on past what the earlier ones read, whatever happened to those events (another account's,
 * one with no cycle left, one that failed again after its new cycle): the walk's total work is the
 * index entries of the window, each step's at most the read bound.
 */
import { STATUS_INDEXES } from '#config/storage';
import { ValidationError } from '#domain/errors';
import { EVENT_ID_PATTERN } from '#domain/ids';
import type { EventRef } from '#domain/model';
import type { RecoveryChunk, RecoveryFilter } from '#domain/ports';
import type { EventTable } from './event-table';
import { pageSizeFor } from './index-reads';
import { MergedIndex } from './merged-index';

/** The indexes in walking order. */
const WALK = [STATUS_INDEXES.failed, STATUS_INDEXES.skipped] as const;

/** Where a walk stands: which index, and the `gsi1sk` of the last entry examined in it (all shards). */
interface Position {
  readonly index: number;
  readonly after?: string | undefined;
}

/** A walk's next step; see `EventUpkeep.recoveryChunk`. */
export async function recoveryChunk(
  table: EventTable,
  orgId: string,
  filter: RecoveryFilter,
  limit: number,
  cursor?: string,
): Promise<RecoveryChunk> {
  const lowest = `${filter.since}#`;
  const start = decodePosition(cursor);
  const ids: EventRef[] = [];
  let read = 0;
  for (let index = start.index; index < WALK.length; index++) {
    // A cursor of an earlier `since` than this one's (the caller changed it) starts at `since`.
    const after =
      index === start.index && start.after !== undefined && start.after >= lowest ? start.after : undefined;
    const walk = new MergedIndex(table, {
      orgId,
      index: WALK[index],
      ascending: true,
      lo: lowest,
      after,
      pageSize: pageSizeFor(limit),
    });
    for (;;) {
      // Each entry is examined here once; the cursor goes past it whether or not it was taken.
      // No filter: every Query returns what it evaluates, so the walk evaluates what this loop examines
      // (bounded below) plus at most one page per partition.
      const step = await walk.next(1, Number.MAX_SAFE_INTEGER);
      const [entry] = step.entries;
      if (entry === undefined) {
        if (step.bounded) return { events: ids, cursor: encodePosition({ index, after }) };
        break;
      }
      read++;
      if (entry.ref.account === filter.account) ids.push(entry.ref);
      if (ids.length >= limit || read >= table.bounds.indexEntries) {
        return { events: ids, cursor: encodePosition({ index, after: entry.order }) };
      }
    }
  }
  return { events: ids };
}

function encodePosition(position: Position): string {
  return Buffer.from(JSON.stringify([position.index, position.after])).toString('base64url');
}

/** `<triggered_at ISO>#<event id>`, the sort key of an index entry. */
const ENTRY_KEY = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#${EVENT_ID_PATTERN.source.slice(1)}`,
);

function decodePosition(cursor: string | undefined): Position {
  if (cursor === undefined) return { index: 0 };
  try {
    const [index, after]: unknown[] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof index === 'number' &&
      Number.isInteger(index) &&
      index >= 0 &&
      index < WALK.length &&
      typeof after === 'string' &&
      ENTRY_KEY.test(after)
    ) {
      return { index, after };
    }
  } catch {
    // Not JSON: refused below.
  }
  throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
}
