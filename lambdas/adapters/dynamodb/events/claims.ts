/**
 * Event ids' claims (`EVENT#<id>`, `EVENT`): a small item written before the event, with
 * `attribute_not_exists(pk)`, that makes the id unique and says where its event is (organization, account,
 * sequence). An event stored before sequences lives at the same key as a whole event (it has a `body`):
 * it is its own claim, and every read here answers it as such.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { batchGetItems } from '#adapters/dynamodb/batch-get';
import { conditionally } from '#adapters/dynamodb/conditional-write';
import { keys } from '#adapters/dynamodb/items';
import { ITEM_PREFIXES } from '#config/storage';
import type { EventRecord } from '#domain/model';
import type { ClaimResult, EventReadOptions, IdClaim } from '#domain/ports';
import { toEventRecord } from './event-items';
import type { EventTable } from './event-table';

/** Stored shape of a claim: a few dozen bytes, one write unit. */
interface ClaimItem {
  pk: string;
  sk: string;
  org_id: string;
  account: string;
  seq: number;
  owner: string;
  claimed_at: number;
  expires_at?: number;
}

function claimItem(claim: IdClaim): ClaimItem {
  return {
    ...keys.event(claim.id),
    org_id: claim.orgId,
    account: claim.account,
    seq: claim.sequence,
    owner: claim.owner,
    claimed_at: claim.claimedAt,
    ...(claim.expiresAt === undefined ? {} : { expires_at: claim.expiresAt }),
  };
}

/** What an item at an id's key is: a claim, or an old-layout event. */
export function readClaimItem(
  id: string,
  item: Record<string, unknown>,
): { claim: IdClaim } | { legacy: EventRecord } {
  if (item.body !== undefined) return { legacy: toEventRecord(item) };
  return {
    claim: {
      id,
      orgId: String(item.org_id),
      account: String(item.account),
      sequence: Number(item.seq),
      owner: String(item.owner),
      claimedAt: Number(item.claimed_at),
      expiresAt: item.expires_at === undefined ? undefined : Number(item.expires_at),
    },
  };
}

/** The item at an id's key, read as a claim or an old-layout event; undefined when there is none. */
export async function getClaim(
  table: EventTable,
  id: string,
  options: EventReadOptions = {},
): Promise<{ claim: IdClaim } | { legacy: EventRecord } | undefined> {
  const out = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: keys.event(id),
      ConsistentRead: options.consistent ?? false,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('GetItem', out.ConsumedCapacity?.CapacityUnits);
  return out.Item ? readClaimItem(id, out.Item) : undefined;
}

/**
 * The items at up to 100 ids' keys, as claims or old-layout events; see `EventLog.readClaims`. One
 * eventually consistent BatchGetItem (0.5 read unit per claim).
 */
export async function readClaims(
  table: EventTable,
  ids: readonly string[],
): Promise<Map<string, Exclude<ClaimResult, { claimed: true }>>> {
  const found = new Map<string, Exclude<ClaimResult, { claimed: true }>>();
  if (ids.length === 0) return found;
  const read = await batchGetItems(
    table.client,
    table.tableName,
    [...new Set(ids)].map((id) => keys.event(id)),
  );
  table.count('BatchGetItem', read.capacityUnits);
  for (const item of read.items) {
    const id = String(item.pk).slice(ITEM_PREFIXES.event.length);
    const claim = readClaimItem(id, item);
    found.set(
      id,
      'legacy' in claim
        ? { claimed: false, legacy: claim.legacy }
        : { claimed: false, existing: claim.claim },
    );
  }
  return found;
}

/**
 * Claims an id unless it is claimed; see `EventLog.claimId`. The client retries a put whose answer was
 * lost (a timeout, a reset connection) although the put succeeded: the retry is refused by the claim it
 * wrote, which it knows by its `owner` (a token of this one publish) and answers as claimed.
 */
export async function claimId(table: EventTable, claim: IdClaim): Promise<ClaimResult> {
  try {
    const out = await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: claimItem(claim),
        ConditionExpression: 'attribute_not_exists(pk)',
        // The existing claim comes back with the failure, so a duplicate publish costs no extra read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count('PutItem', out.ConsumedCapacity?.CapacityUnits);
    return { claimed: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException && error.Item)) throw error;
    const found = readClaimItem(claim.id, unmarshall(error.Item));
    if ('legacy' in found) return { claimed: false, legacy: found.legacy };
    return found.claim.owner === claim.owner ? { claimed: true } : { claimed: false, existing: found.claim };
  }
}

/**
 * Moves an id's claim if `owner` still holds it; see `EventLog.moveClaim`. A conditional put of the
 * whole claim rather than an update, so the publish path needs no UpdateItem right on `EVENT#` items
 * (where old-layout events live too); an old-layout event has no `owner`, so it is never replaced.
 */
export function moveClaim(table: EventTable, owner: string, claim: IdClaim): Promise<boolean> {
  return conditionally(async () => {
    const out = await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: claimItem(claim),
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count('MoveClaim', out.ConsumedCapacity?.CapacityUnits);
  });
}
