/**
 * {@link EventTypeStore} on the events table, one partition (`EVENT_TYPES`) for all operators' types:
 * the catalog item (`CATALOG`: the names, a string set), a head per type (`TYPE#<type>`: description,
 * deprecation, latest version) and an item per version (`VERSION#<type>#<0001>`: the schema and examples
 * as deflated JSON, so a version of up to about 120 KB reads in a fraction of its size and stays far
 * below DynamoDB's item limit). A new type is one transaction of its head, its first version and its
 * name (conditioned on the catalog's size, which makes `MAX_OPERATOR_EVENT_TYPES` exact); a new version
 * one transaction of the version and the head; a head's change is conditioned on the head the writer read
 * (description, deprecation and latest version), so a concurrent change is never undone.
 * Reads are strongly consistent: a version the head names is always found, and they are rare (each
 * container keeps what it read).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionally } from '#adapters/dynamodb/conditional-write';
import { MAX_OPERATOR_EVENT_TYPES } from '#config/catalog-limits';
import type { EventTypeExample, EventTypeVersion, JsonSchemaObject } from '#domain/event-types/model';
import type { EventTypeHead, EventTypeStore, TypeChange, TypeCreation } from '#domain/ports';
import { type TransactItems, transact } from './api-key-count';
import { type ItemKey, keys } from './items';

/** The catalog item's set of type names. */
const NAMES = 'type_names';
const NOT_STORED = 'attribute_not_exists(pk)';

/** What a version item's `content` holds, deflated. */
interface VersionContent {
  readonly schema: JsonSchemaObject;
  readonly examples: readonly EventTypeExample[];
}

export class DynamoEventTypeStore implements EventTypeStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async typeNames(): Promise<readonly string[]> {
    const item = await this.read(keys.eventTypeCatalog);
    const names = item?.[NAMES];
    return names instanceof Set ? [...names].map(String).sort() : [];
  }

  async head(type: string): Promise<EventTypeHead | undefined> {
    const item = await this.read(keys.eventTypeHead(type));
    if (item === undefined) return undefined;
    return {
      type,
      description: String(item.description),
      deprecated: item.deprecated === true,
      latest: Number(item.latest),
    };
  }

  async version(type: string, version: number): Promise<EventTypeVersion | undefined> {
    const item = await this.read(keys.eventTypeVersion(type, version));
    if (item === undefined) return undefined;
    const content = JSON.parse(inflateRawSync(item.content as Uint8Array).toString('utf8')) as VersionContent;
    return { version, schema: content.schema, examples: content.examples, deprecated: false };
  }

  async createType(head: EventTypeHead, first: EventTypeVersion): Promise<TypeCreation> {
    const outcome = await transact(this.client, [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.eventTypeHead(head.type), ...headAttributes(head) },
          ConditionExpression: NOT_STORED,
        },
      },
      this.putVersion(head.type, 1, first),
      {
        Update: {
          TableName: this.tableName,
          Key: keys.eventTypeCatalog,
          UpdateExpression: 'ADD #names :name',
          ConditionExpression: 'attribute_not_exists(#names) OR size(#names) < :max',
          ExpressionAttributeNames: { '#names': NAMES },
          ExpressionAttributeValues: { ':name': new Set([head.type]), ':max': MAX_OPERATOR_EVENT_TYPES },
        },
      },
    ]);
    if (outcome.written) return 'created';
    const failed = outcome.reasons.map((reason) => reason.code === 'ConditionalCheckFailed');
    if (failed[0]) return 'exists';
    if (failed[2]) return 'full';
    throw new Error(`event type ${head.type}: version 1 is stored without its head`);
  }

  async updateType(change: TypeChange): Promise<boolean> {
    const { expected } = change;
    const latest = change.added === undefined ? expected.latest : expected.latest + 1;
    const update = {
      TableName: this.tableName,
      Key: keys.eventTypeHead(expected.type),
      UpdateExpression: 'SET #description = :description, #deprecated = :deprecated, #latest = :latest',
      // The whole head as read: the fields this write keeps are the ones it read, so it must not land on
      // another writer's change of them (an absent head fails it too).
      ConditionExpression:
        '#latest = :expectedLatest AND #description = :expectedDescription AND #deprecated = :expectedDeprecated',
      ExpressionAttributeNames: {
        '#description': 'description',
        '#deprecated': 'deprecated',
        '#latest': 'latest',
      },
      ExpressionAttributeValues: {
        ':description': change.description,
        ':deprecated': change.deprecated,
        ':latest': latest,
        ':expectedLatest': expected.latest,
        ':expectedDescription': expected.description,
        ':expectedDeprecated': expected.deprecated,
      },
    };
    if (change.added === undefined) return conditionally(() => this.client.send(new UpdateCommand(update)));
    const outcome = await transact(this.client, [
      { Update: update },
      this.putVersion(expected.type, latest, change.added),
    ]);
    if (outcome.written) return true;
    if (outcome.reasons[0]?.code === 'ConditionalCheckFailed') return false;
    throw new Error(`event type ${expected.type}: version ${latest} is stored beyond its head`);
  }

  private putVersion(type: string, version: number, stored: EventTypeVersion): TransactItems[number] {
    const content: VersionContent = { schema: stored.schema, examples: stored.examples };
    return {
      Put: {
        TableName: this.tableName,
        Item: {
          ...keys.eventTypeVersion(type, version),
          version,
          content: deflateRawSync(JSON.stringify(content), { level: 9 }),
        },
        ConditionExpression: NOT_STORED,
      },
    };
  }

  private async read(key: ItemKey): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    return out.Item;
  }
}

function headAttributes(head: EventTypeHead): Record<string, unknown> {
  return { description: head.description, deprecated: head.deprecated, latest: head.latest };
}
