/**
 * Bounded reads of an organization's events through the `by-org` index or a sparse status index: the
 * query of one page of index entries, collecting ids up to the read bound, and batch-reading the list
 * view of the events they name. The listing, the status indexes and the operator's chunks build on them.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '#adapters/dynamodb/batch-get';
import { keys } from '#adapters/dynamodb/items';
import type { EventRecord, EventRef } from '#domain/model';
import type { EventListRequest } from '#domain/ports';
import { refOfItem, toEventRecord } from './event-items';
import type { EventTable } from './event-table';

const BY_ORG = 'by-org';
/** Attributes of the list view: everything but the body and the attempts. */
const SUMMARY_PROJECTION =
  'pk, sk, gsi1pk, gsi1sk, account, #type, sig, signature, webhook_status, webhook_retries';
/** What an index entry must carry to name its event: the table's keys, its order and its account. */
export const ENTRY_PROJECTION = 'pk, sk, gsi1sk, account';

/** A sparse status index, read instead of `by-org`. */
export interface StatusIndex {
  readonly name: string;
  readonly attribute: string;
}

/**
 * The Query of one page of the organization's index entries in list order (newest first), the time window
 * in the key condition and `account`/`type` as filters; only the keys are read.
 */
export function indexQuery(
  table: EventTable,
  request: EventListRequest,
  startKey: Record<string, unknown> | undefined,
  index?: StatusIndex,
): QueryCommandInput {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': keys.orgEvents(request.orgId) };
  let condition = `${index?.attribute ?? 'gsi1pk'} = :pk`;
  // `#` sorts before every id character and `~` after, so both bounds are inclusive.
  if (request.since !== undefined) values[':lo'] = `${request.since}#`;
  if (request.until !== undefined) values[':hi'] = `${request.until}#~`;
  if (request.since !== undefined && request.until !== undefined)
    condition += ' AND gsi1sk BETWEEN :lo AND :hi';
  else if (request.since !== undefined) condition += ' AND gsi1sk >= :lo';
  else if (request.until !== undefined) condition += ' AND gsi1sk <= :hi';
  const filters: string[] = [];
  if (request.account !== undefined) {
    filters.push('account = :account');
    values[':account'] = request.account;
  }
  if (request.type !== undefined) {
    filters.push('#type = :type');
    names['#type'] = 'type';
    values[':type'] = request.type;
  }
  return {
    TableName: table.tableName,
    IndexName: index?.name ?? BY_ORG,
    KeyConditionExpression: condition,
    ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
    // DynamoDB rejects an empty ExpressionAttributeNames map.
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
    ProjectionExpression: ENTRY_PROJECTION,
    ScanIndexForward: false,
    ExclusiveStartKey: startKey,
    ReturnConsumedCapacity: 'TOTAL',
  };
}

/** One Query: its page of index entries as events, how many entries it evaluated, and where it stopped. */
export async function queryIds(
  table: EventTable,
  input: QueryCommandInput,
  orgId: string,
): Promise<{ ids: EventRef[]; scanned: number; next: Record<string, unknown> | undefined }> {
  const out = await table.client.send(new QueryCommand(input));
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  return {
    ids: (out.Items ?? []).map((item) => refOfItem(item, orgId)),
    scanned: out.ScannedCount ?? 0,
    next: out.LastEvaluatedKey,
  };
}

/**
 * Ids from an index in list order, until `wanted` matched or the table's bound of index entries was
 * read; `bounded` when the read stopped at that bound with entries left.
 */
export async function readIds(
  table: EventTable,
  request: EventListRequest,
  wanted: number,
  index?: StatusIndex,
): Promise<{ ids: EventRef[]; bounded: boolean }> {
  const bound = table.bounds.indexEntries;
  const ids: EventRef[] = [];
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    if (read >= bound) return { ids, bounded: true };
    const input = indexQuery(table, request, startKey, index);
    // Without a filter every evaluated item matches, so Limit stops the read exactly where the page ends;
    // with one, Limit caps what a call evaluates.
    input.Limit = input.FilterExpression ? bound - read : Math.min(wanted - ids.length, bound - read);
    const page = await queryIds(table, input, request.orgId);
    read += page.scanned;
    ids.push(...page.ids);
    startKey = page.next;
  } while (startKey && ids.length < wanted);
  return { ids, bounded: false };
}

/** Reads the list view of up to 100 events, in the order of `refs`; vanished ones are skipped. */
export async function batchGetSummaries(
  table: EventTable,
  refs: readonly EventRef[],
): Promise<EventRecord[]> {
  if (refs.length === 0) return [];
  const { items, capacityUnits } = await batchGetItems(
    table.client,
    table.tableName,
    refs.map(keys.eventAt),
    {
      expression: SUMMARY_PROJECTION,
      names: { '#type': 'type' },
    },
  );
  table.count('BatchGetItem', capacityUnits);
  const found = new Map(items.map((item) => [toEventRecord(item).id, toEventRecord(item)]));
  return refs.flatMap((ref) => found.get(ref.id) ?? []);
}
