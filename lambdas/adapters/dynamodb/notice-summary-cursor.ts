import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SummaryCursor } from '#domain/notices/ports';
import { conditionally } from './conditional-write';
import { keys } from './items';

/**
 * {@link SummaryCursor} on the events table: one item (`NOTICE_SUMMARY` / `CURSOR`) holding the last minute
 * covered (`last_minute`), read consistently and moved by an UpdateItem conditioned on the value read.
 */
export class DynamoSummaryCursor implements SummaryCursor {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async last(): Promise<string | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: keys.noticeSummary, ConsistentRead: true }),
    );
    const value = out.Item?.last_minute;
    return typeof value === 'string' ? value : undefined;
  }

  move(from: string | undefined, to: string): Promise<boolean> {
    return conditionally(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.noticeSummary,
          UpdateExpression: 'SET last_minute = :to',
          ConditionExpression:
            from === undefined ? 'attribute_not_exists(last_minute)' : 'last_minute = :from',
          ExpressionAttributeValues: { ':to': to, ...(from === undefined ? {} : { ':from': from }) },
        }),
      ),
    );
  }
}
