/**
 * The numbering of an account's log (`use-cases/events/sequencing.ts`): its tail, the head item that hands
 * out tickets while the log is hot (`LOG#<org>#<IBAN>`, `HEAD`: `hi`, the highest sequence handed out,
 * and `at`, the last ticket's epoch ms; no index keys, not pending, no TTL), and the void items that close
 * missing sequences (`domain/log-holes.ts`). The head lives in the log's own partition so that one Query
 * of the log's end sees it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  conditionally,
  conditionalUpdate,
  ifRefused,
  updateOrRefused,
} from '#adapters/dynamodb/conditional-write';
import { keys, LOG_HEAD_SK } from '#adapters/dynamodb/items';
import type { EventReadOptions, LogHead, LogTail, Ticket } from '#domain/ports';
import { isVoid, VOIDED_AT } from './event-items';
import { type EventTable, lastItem } from './event-table';

/**
 * The log's last item, descending, `Limit 1`: the head (its sort key sorts after every sequence), or the
 * highest sequence when there is none. The same read unit as the quiet publish always paid.
 */
export async function readTail(
  table: EventTable,
  orgId: string,
  account: string,
  options: EventReadOptions = {},
): Promise<LogTail> {
  const last = await lastItem(
    table,
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.log(orgId, account) },
      ProjectionExpression: 'sk, hi, #at',
      ExpressionAttributeNames: { '#at': 'at' },
    },
    options,
  );
  if (last === undefined) return { highest: 0 };
  if (last.sk === LOG_HEAD_SK) return { head: { handedOut: Number(last.hi), at: Number(last.at) } };
  return { highest: Number(last.sk) };
}

/** Rounds of lifting a head that lags `above` before giving up (each one lost to a concurrent ticket). */
const LIFT_ROUNDS = 8;

/**
 * Hands out `count` sequences from an existing head; see `EventLog.takeTicket`. One UpdateItem (1 write
 * unit) adding to `hi`: concurrent tickets serialize on the item, none is refused.
 */
export async function takeTicket(
  table: EventTable,
  orgId: string,
  account: string,
  count: number,
  at: number,
): Promise<Ticket | undefined> {
  const update = { UpdateExpression: 'SET #at = :at ADD hi :k', ConditionExpression: 'attribute_exists(hi)' };
  return ifRefused(() => ticket(table, orgId, account, count, at, update), undefined);
}

/**
 * Hands out `count` sequences above `above`; see `EventLog.takeTicketAbove`. The same UpdateItem, a
 * missing head created at `above` (`if_not_exists`); a head below `above` refuses it and is first lifted
 * to `above` (a second UpdateItem, conditioned on the `hi` it replaces).
 */
export async function takeTicketAbove(
  table: EventTable,
  orgId: string,
  account: string,
  count: number,
  at: number,
  above: number,
): Promise<Ticket> {
  for (let round = 0; round < LIFT_ROUNDS; round++) {
    try {
      return await ticket(table, orgId, account, count, at, {
        UpdateExpression: 'SET hi = if_not_exists(hi, :above) + :k, #at = :at',
        ConditionExpression: 'attribute_not_exists(hi) OR hi >= :above',
        values: { ':above': above },
      });
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException && error.Item)) throw error;
      await liftHead(table, keys.logHead(orgId, account), Number(unmarshall(error.Item).hi), above);
    }
  }
  throw new Error(`the head of ${account}'s log kept moving while it was lifted; publish again`);
}

/** One ticket's UpdateItem of the head. */
async function ticket(
  table: EventTable,
  orgId: string,
  account: string,
  count: number,
  at: number,
  update: { UpdateExpression: string; ConditionExpression: string; values?: Record<string, number> },
): Promise<Ticket> {
  const out = await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: keys.logHead(orgId, account),
      UpdateExpression: update.UpdateExpression,
      ConditionExpression: update.ConditionExpression,
      ExpressionAttributeNames: { '#at': 'at' },
      ExpressionAttributeValues: { ':k': count, ':at': at, ...update.values },
      ReturnValues: 'UPDATED_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('TakeTicket', out.ConsumedCapacity?.CapacityUnits);
  const last = Number(out.Attributes?.hi);
  return { first: last - count + 1, last, at };
}

/** Sets a lagging head's `hi` to `above` if it still is `lagging`; a concurrent lift or ticket wins. */
async function liftHead(
  table: EventTable,
  Key: ReturnType<typeof keys.logHead>,
  lagging: number,
  above: number,
): Promise<void> {
  await conditionalUpdate(table, 'LiftHead', {
    TableName: table.tableName,
    Key,
    UpdateExpression: 'SET hi = :above',
    ConditionExpression: 'hi = :lagging',
    ExpressionAttributeValues: { ':above': above, ':lagging': lagging },
  });
}

/** Deletes the head if no ticket changed it since it was read; see `EventLog.leaveHot`. */
export async function leaveHot(
  table: EventTable,
  orgId: string,
  account: string,
  head: LogHead,
): Promise<boolean> {
  return conditionally(async () => {
    const out = await table.client.send(
      new DeleteCommand({
        TableName: table.tableName,
        Key: keys.logHead(orgId, account),
        ConditionExpression: 'hi = :hi AND #at = :at',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':hi': head.handedOut, ':at': head.at },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count('LeaveHot', out.ConsumedCapacity?.CapacityUnits);
  });
}

/**
 * Closes a missing sequence: creates its void item unless an item holds the sequence (1 write unit); see
 * `EventLog.voidSequence`. An UpdateItem that names only the keys, `voided_at` and (a sequence given
 * back) `rt`, so the right it needs can be limited to those attributes.
 */
export async function voidSequence(
  table: EventTable,
  orgId: string,
  account: string,
  sequence: number,
  at: number,
  ticketedAt?: number,
): Promise<boolean> {
  const given = ticketedAt !== undefined;
  const { updated, item } = await updateOrRefused(table, 'VoidSequence', {
    TableName: table.tableName,
    Key: { pk: keys.log(orgId, account), sk: keys.sequence(sequence) },
    UpdateExpression: given ? 'SET #voided = :at, rt = :rt' : 'SET #voided = :at',
    ConditionExpression: 'attribute_not_exists(pk)',
    ExpressionAttributeNames: { '#voided': VOIDED_AT },
    ExpressionAttributeValues: given ? { ':at': at, ':rt': ticketedAt } : { ':at': at },
  });
  return updated || (item !== undefined && isVoid(item));
}
