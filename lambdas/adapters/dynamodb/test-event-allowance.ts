import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TestEventAllowance } from '#delivery/test-event-port';
import type { TestEventWindow } from '#delivery/test-event-rule';
import { conditionally } from './conditional-write';
import { keys } from './items';

/**
 * {@link TestEventAllowance} on the events table: one `TESTS#<orgId>#<IBAN>` item per account that was
 * ever sent a test event, `{window_start, sent, expires_at}`, rewritten in place, so the counters take at
 * most one small item per account whether or not the table expires items (`expires_at` is its TTL
 * attribute, which only event retention turns on); the account's deletion removes it.
 *
 * A test event costs one conditional write when it is the account's first of its minute (a window starts),
 * two otherwise (the start is refused, the count goes up), and a refused one two: no read, and nothing at
 * all on any other path. The start is tried first because a person checking a receiver sends one or a few.
 */
export class DynamoTestEventAllowance implements TestEventAllowance {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(orgId: string, iban: string, window: TestEventWindow): Promise<boolean> {
    const key = keys.testEvents(orgId, iban);
    const names = { '#start': 'window_start', '#sent': 'sent' };
    // A window that starts: the counter is absent, or of an earlier window.
    const started = await conditionally(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET #start = :start, #sent = :one, expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(#start) OR #start < :start',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':start': window.start, ':one': 1, ':expires': window.expiresAt },
        }),
      ),
    );
    if (started) return true;
    // The window has begun: one more, while it has room. A counter of a later window (another
    // container's clock ahead of this one's) refuses too, until this clock reaches it.
    return conditionally(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET #sent = #sent + :one',
          ConditionExpression: '#start = :start AND #sent < :limit',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':start': window.start, ':one': 1, ':limit': window.limit },
        }),
      ),
    );
  }

  async forget(orgId: string, iban: string): Promise<void> {
    await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: keys.testEvents(orgId, iban) }),
    );
  }
}
