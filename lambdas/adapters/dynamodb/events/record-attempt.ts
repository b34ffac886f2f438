/**
 * An attempt recorded on the event's item (`DeliveryLedger.recordAttempt`): appended to its attempts with
 * the status, the next attempt's time and the latest `X-Signature` in one write; a failure's status only
 * while the event is pending (a concurrent success wins), the attempt itself always.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import type { DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from '#domain/model';
import { EventItemFullError } from '#domain/ports';
import { attemptItem, packSignature, toEventRecord } from './event-items';
import type { EventTable } from './event-table';

/** See `DeliveryLedger.recordAttempt`. */
export async function recordAttempt(
  table: EventTable,
  ref: EventRef,
  attempt: DeliveryAttempt,
  status: WebhookStatus,
  nextAttemptAt?: number,
): Promise<EventRecord> {
  const signed = attempt.signature !== undefined;
  const append = {
    TableName: table.tableName,
    Key: keys.eventAt(ref),
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: {
      ':a': [attemptItem(attempt)],
      ':empty': [],
      ':one': 1,
      ...(attempt.signature === undefined ? {} : { ':sig': packSignature(attempt.signature) }),
    } as Record<string, unknown>,
    ReturnValues: 'ALL_NEW' as const,
    ReturnConsumedCapacity: 'TOTAL' as const,
  };
  // The event's `signature` is its latest attempt's `X-Signature`: kept in the same write, no extra
  // cost, and an older item's publish-time one goes.
  const appendList = `deliveries = list_append(if_not_exists(deliveries, :empty), :a)${signed ? ', sig = :sig' : ''}`;
  const tail = `ADD webhook_retries :one REMOVE lease_until${signed ? ', signature' : ''}`;
  // The sparse status index follows the status; removing an absent attribute writes no index entry.
  const marks =
    status === 'failed'
      ? { set: `, ${STATUS_INDEXES.failed.attribute} = gsi1pk`, remove: '' }
      : { set: '', remove: status === 'success' ? `, ${STATUS_INDEXES.failed.attribute}` : '' };
  const out = await table.client
    .send(
      new UpdateCommand({
        ...append,
        UpdateExpression:
          nextAttemptAt === undefined
            ? `SET ${appendList}, webhook_status = :s${marks.set} ${tail}, next_attempt_at${marks.remove}`
            : `SET ${appendList}, webhook_status = :s, next_attempt_at = :next${marks.set} ${tail}${marks.remove}`,
        // A failure may only move a pending event; a success always wins.
        ConditionExpression:
          status === 'success'
            ? 'attribute_exists(pk)'
            : 'attribute_exists(pk) AND webhook_status = :pending',
        ExpressionAttributeValues: {
          ...append.ExpressionAttributeValues,
          ':s': status,
          ...(status === 'success' ? {} : { ':pending': 'pending' }),
          ...(nextAttemptAt === undefined ? {} : { ':next': nextAttemptAt }),
        },
      }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // A concurrent consumer settled the event first: the attempt still happened, so it is recorded.
      return table.client.send(
        new UpdateCommand({ ...append, UpdateExpression: `SET ${appendList} ${tail}` }),
      );
    })
    .catch((error: unknown) => {
      throw itemFullOr(ref.id, error);
    });
  table.count('UpdateItem', out.ConsumedCapacity?.CapacityUnits);
  return toEventRecord(out.Attributes ?? {});
}

/** DynamoDB refuses an update that takes the item past 400 KB, and writes nothing: the item is full. */
function itemFullOr(id: string, error: unknown): unknown {
  const full =
    error instanceof Error && error.name === 'ValidationException' && /item size/i.test(error.message);
  return full ? new EventItemFullError(id) : error;
}
