/**
 * A recovery's walk (enabling an endpoint with `recover_since`) through the sparse `failed-by-org` and
 * `skipped-by-org` indexes: oldest first from `since`, the failed index then the skipped one, one
 * account's events picked from the entries on the way. Its cursor is the last entry examined, so every
 * step goes on past what the earlier ones read, whatever happened to those events (another account's,
 * one with no cycle left, one that failed again after its new cycle): the walk's total work is the
 * index entries of the window, each step's at most the read bound.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type ItemKey, keys } from '#adapters/dynamodb/items';
import { ITEM_PREFIXES, STATUS_INDEXES } from '#config/storage';
import { ValidationError } from '#domain/errors';
import { EVENT_ID_PATTERN } from '#domain/ids';
import type { EventRef } from '#domain/model';
import type { RecoveryChunk, RecoveryFilter } from '#domain/ports';
import { refOfItem } from './event-items';
import type { EventTable } from './event-table';

/** The indexes in walking order. */
const WALK = [STATUS_INDEXES.failed, STATUS_INDEXES.skipped] as const;

/** Where a walk stands: which index, and the `gsi1sk` and table key of the last entry examined in it. */
interface Position {
  readonly index: number;
  readonly after?: string | undefined;
  readonly key?: ItemKey | undefined;
}

/** A walk's next step; see `EventStore.recoveryChunk`. */
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
    const { name, attribute } = WALK[index] ?? STATUS_INDEXES.failed;
    // A cursor of an earlier `since` than this one's (the caller changed it) starts at `since`.
    const after =
      index === start.index && start.after !== undefined && start.after >= lowest ? start.after : undefined;
    let startKey: Record<string, unknown> | undefined =
      after === undefined
        ? undefined
        : {
            [attribute]: keys.orgEvents(orgId),
            gsi1sk: after,
            ...(start.key ?? keys.event(after.slice(after.indexOf('#') + 1))),
          };
    do {
      const out = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: name,
          KeyConditionExpression: `${attribute} = :pk AND gsi1sk >= :lo`,
          ExpressionAttributeValues: { ':pk': keys.orgEvents(orgId), ':lo': lowest },
          ProjectionExpression: 'pk, sk, gsi1sk, account',
          Limit: table.bounds.indexEntries - read,
          ExclusiveStartKey: startKey,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      table.count('Query', out.ConsumedCapacity?.CapacityUnits);
      // Each entry is examined here once; the cursor goes past it whether or not it was taken.
      for (const item of out.Items ?? []) {
        read++;
        if (item.account === filter.account) ids.push(refOfItem(item, orgId));
        const done = ids.length >= limit || read >= table.bounds.indexEntries;
        if (done) {
          const key = { pk: String(item.pk), sk: String(item.sk) };
          return { events: ids, cursor: encodePosition({ index, after: String(item.gsi1sk), key }) };
        }
      }
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  }
  return { events: ids };
}

function encodePosition(position: Position): string {
  const { index, after, key } = position;
  return Buffer.from(JSON.stringify([index, after, key?.pk, key?.sk])).toString('base64url');
}

/** `<triggered_at ISO>#<event id>`, the sort key of an index entry. */
const ENTRY_KEY = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#${EVENT_ID_PATTERN.source.slice(1)}`,
);

function decodePosition(cursor: string | undefined): Position {
  if (cursor === undefined) return { index: 0 };
  try {
    const [index, after, pk, sk]: unknown[] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // A cursor handed out before log items names the entry's old-layout key by its id (no pk, sk).
    const key =
      typeof pk === 'string' && pk.startsWith(ITEM_PREFIXES.log) && typeof sk === 'string' && /^\d+$/.test(sk)
        ? { pk, sk }
        : undefined;
    if (
      typeof index === 'number' &&
      Number.isInteger(index) &&
      index >= 0 &&
      index < WALK.length &&
      typeof after === 'string' &&
      ENTRY_KEY.test(after) &&
      (key !== undefined || pk === undefined || pk === null)
    ) {
      return { index, after, key };
    }
  } catch {
    // Not JSON: refused below.
  }
  throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
}
