import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIXES } from '#config/storage';
import type { Notice } from '#domain/notices/notice';
import type { NoticeHead, NoticeIndex } from '#domain/notices/ports';
import { BATCH_GET_LIMIT, batchGetItems } from './batch-get';
import { keys } from './items';
import { toNotice } from './operational-log';

/** The index every organization's notices are filed in by minute (`operational-log.ts` writes the keys). */
const INDEX = 'by-org';

/**
 * {@link NoticeIndex} on the events table: one minute's notices are one partition of the `by-org` index
 * (`OPS#MIN#<minute>`), its sort key `<at>#<kind>#<id>`, so they are counted by kind from the index's keys
 * alone; only the notices shown are read whole (one BatchGetItem of their `OPS#` items).
 */
export class DynamoNoticeIndex implements NoticeIndex {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async minute(minute: string, limit: number): Promise<{ heads: NoticeHead[]; more: boolean }> {
    const wanted = limit + 1;
    const heads: NoticeHead[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: INDEX,
          KeyConditionExpression: 'gsi1pk = :minute',
          ExpressionAttributeValues: { ':minute': keys.noticeMinute(minute) },
          ProjectionExpression: 'pk, sk, gsi1sk',
          Limit: wanted - heads.length,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) heads.push(toHead(item));
      start = out.LastEvaluatedKey;
    } while (start !== undefined && heads.length < wanted);
    return { heads: heads.slice(0, limit), more: heads.length > limit };
  }

  async read(heads: readonly NoticeHead[]): Promise<Notice[]> {
    if (heads.length > BATCH_GET_LIMIT) throw new RangeError(`read: at most ${BATCH_GET_LIMIT} notices`);
    if (heads.length === 0) return [];
    const { items } = await batchGetItems(
      this.client,
      this.tableName,
      heads.map((head) => ({ pk: keys.operationalLog(head.orgId), sk: head.ref })),
    );
    const byId = new Map(items.map((item) => [String(item.id), toNotice(item)]));
    return heads.flatMap((head) => byId.get(head.id) ?? []);
  }
}

/** A head from an index entry: the organization from the table key, kind and time from the index key. */
function toHead(item: Record<string, unknown>): NoticeHead {
  const [at = '', kind = '', id = ''] = String(item.gsi1sk).split('#');
  return {
    orgId: String(item.pk).slice(ITEM_PREFIXES.operational.length),
    kind,
    at,
    id,
    ref: String(item.sk),
  };
}
