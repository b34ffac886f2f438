/**
 * Creates Herald's table and queues in the emulators, from the same shapes the CDK stack uses.
 *
 * Provisioning is idempotent and converging: run against persisted emulator data it finds the existing
 * resources, and it re-applies queue attributes that changed, so a restarted local runtime needs no
 * manual cleanup.
 */
import {
  type AttributeDefinition,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  PutItemCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { DEAD_LETTER_QUEUE, DELIVERY_QUEUE } from '#config/delivery';
import { EVENTS_TABLE, type KeyAttribute, SETTINGS_ITEM } from '#config/storage';

/** What to provision and where. */
export interface ProvisionOptions {
  /** Prefix of every resource name; lets test files and runtimes share emulators without colliding. */
  readonly prefix: string;
  /** Default: a client configured from the environment (see `applyLocalAwsEnv`). */
  readonly dynamodb?: DynamoDBClient;
  /** Default: a client configured from the environment. */
  readonly sqs?: SQSClient;
  /**
   * Base URL of the SQS emulator; default `AWS_ENDPOINT_URL_SQS`. Queue URLs are rebased onto it because
   * fauxqs answers `http://sqs.<region>.localhost:<port>/...`, a host that does not resolve here, and
   * the SDK sends each request to its queue URL's host.
   */
  readonly sqsEndpoint?: string;
  /** Override of `DELIVERY_QUEUE.maxReceiveCount`, so tests can reach the DLQ in a few receives. */
  readonly maxReceiveCount?: number | undefined;
  /** Override of `DELIVERY_QUEUE.visibilityTimeoutSeconds`. */
  readonly visibilityTimeoutSeconds?: number | undefined;
  /** The stack's `eventRetentionDays`: written to the settings item, as the stack does at deploy time. */
  readonly eventRetentionDays?: number | undefined;
}

/** Names, URLs and ARNs of the provisioned resources. */
export interface ProvisionedResources {
  readonly tableName: string;
  readonly tableArn: string;
  readonly streamArn: string;
  readonly queueName: string;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly dlqName: string;
  readonly dlqUrl: string;
  readonly dlqArn: string;
}

/** Resource names derived from a prefix. */
export function resourceNames(prefix: string): { tableName: string; queueName: string; dlqName: string } {
  return {
    tableName: `${prefix}-events`,
    queueName: `${prefix}-delivery`,
    dlqName: `${prefix}-delivery-dlq`,
  };
}

/** Creates (or finds) the events table with its stream, index and TTL, and the delivery queue with its DLQ. */
export async function provisionResources(options: ProvisionOptions): Promise<ProvisionedResources> {
  const names = resourceNames(options.prefix);
  const dynamodb = options.dynamodb ?? new DynamoDBClient({});
  const sqs = options.sqs ?? new SQSClient({});
  const sqsEndpoint = options.sqsEndpoint ?? process.env.AWS_ENDPOINT_URL_SQS;
  try {
    const table = await ensureTable(dynamodb, names.tableName);
    await writeSettings(dynamodb, names.tableName, options.eventRetentionDays);
    const dlq = await ensureQueue(sqs, sqsEndpoint, names.dlqName, {
      VisibilityTimeout: String(DEAD_LETTER_QUEUE.visibilityTimeoutSeconds),
      MessageRetentionPeriod: String(DEAD_LETTER_QUEUE.retentionPeriodSeconds),
    });
    const queue = await ensureQueue(sqs, sqsEndpoint, names.queueName, {
      VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? DELIVERY_QUEUE.visibilityTimeoutSeconds),
      MessageRetentionPeriod: String(DELIVERY_QUEUE.retentionPeriodSeconds),
      ReceiveMessageWaitTimeSeconds: String(DELIVERY_QUEUE.receiveWaitTimeSeconds),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: dlq.arn,
        maxReceiveCount: options.maxReceiveCount ?? DELIVERY_QUEUE.maxReceiveCount,
      }),
    });
    return {
      ...table,
      queueName: names.queueName,
      queueUrl: queue.url,
      queueArn: queue.arn,
      dlqName: names.dlqName,
      dlqUrl: dlq.url,
      dlqArn: dlq.arn,
    };
  } finally {
    if (!options.dynamodb) dynamodb.destroy();
    if (!options.sqs) sqs.destroy();
  }
}

/** Deletes what {@link provisionResources} created; missing resources are fine. */
export async function deprovisionResources(
  resources: Pick<ProvisionedResources, 'tableName' | 'queueUrl' | 'dlqUrl'>,
  clients: { readonly dynamodb: DynamoDBClient; readonly sqs: SQSClient },
): Promise<void> {
  await Promise.all([
    clients.dynamodb.send(new DeleteTableCommand({ TableName: resources.tableName })).catch(ignoreMissing),
    clients.sqs.send(new DeleteQueueCommand({ QueueUrl: resources.queueUrl })).catch(ignoreMissing),
    clients.sqs.send(new DeleteQueueCommand({ QueueUrl: resources.dlqUrl })).catch(ignoreMissing),
  ]);
}

/** The settings item (`SETTINGS_ITEM`), rewritten at every start like the stack's deploy-time write. */
async function writeSettings(
  client: DynamoDBClient,
  tableName: string,
  retentionDays?: number,
): Promise<void> {
  const { key, retentionDaysAttribute } = SETTINGS_ITEM;
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: {
        pk: { S: key.pk },
        sk: { S: key.sk },
        ...(retentionDays === undefined ? {} : { [retentionDaysAttribute]: { N: String(retentionDays) } }),
      },
    }),
  );
}

async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<{ tableName: string; tableArn: string; streamArn: string }> {
  let table = await describeTable(client, tableName);
  if (!table) {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
    } catch (error) {
      // Another test file or runtime created it between our describe and create.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
    table = await waitForActive(client, tableName);
  }
  // A table kept in `.herald/data` from an older version lacks the indexes added since: add them.
  for (const index of EVENTS_TABLE.indexes) {
    if (table.GlobalSecondaryIndexes?.some((existing) => existing.IndexName === index.name)) continue;
    const input = createTableInput(tableName);
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [
          { Create: input.GlobalSecondaryIndexes?.find((created) => created.IndexName === index.name) },
        ],
      }),
    );
    table = await waitForActive(client, tableName);
  }
  if (!table.StreamSpecification?.StreamEnabled || !table.LatestStreamArn) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        StreamSpecification: { StreamEnabled: true, StreamViewType: EVENTS_TABLE.streamViewType },
      }),
    );
    table = await waitForActive(client, tableName);
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const ttlStatus = ttl.TimeToLiveDescription?.TimeToLiveStatus;
  if (ttlStatus !== 'ENABLED' && ttlStatus !== 'ENABLING') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: EVENTS_TABLE.timeToLiveAttribute, Enabled: true },
      }),
    );
  }
  if (!table.TableArn || !table.LatestStreamArn) {
    throw new Error(`Table ${tableName} has no ARN or stream after provisioning`);
  }
  return { tableName, tableArn: table.TableArn, streamArn: table.LatestStreamArn };
}

function createTableInput(tableName: string): ConstructorParameters<typeof CreateTableCommand>[0] {
  const keys: KeyAttribute[] = [EVENTS_TABLE.partitionKey, EVENTS_TABLE.sortKey];
  for (const index of EVENTS_TABLE.indexes) keys.push(index.partitionKey, index.sortKey);
  const definitions = new Map<string, AttributeDefinition>();
  for (const key of keys) definitions.set(key.name, { AttributeName: key.name, AttributeType: key.type });
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...definitions.values()],
    KeySchema: [
      { AttributeName: EVENTS_TABLE.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: EVENTS_TABLE.sortKey.name, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: EVENTS_TABLE.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.nonKeyAttributes] },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: EVENTS_TABLE.streamViewType },
  };
}

async function describeTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** DynamoDB Local creates tables ACTIVE at once; the wait is for fidelity with the real service. */
async function waitForActive(client: DynamoDBClient, tableName: string): Promise<TableDescription> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const table = await describeTable(client, tableName);
    if (table?.TableStatus === 'ACTIVE') return table;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} did not become ACTIVE`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Creates the queue, or finds it and converges its attributes; its URL rebased onto `endpoint`. */
export async function ensureQueue(
  client: SQSClient,
  endpoint: string | undefined,
  name: string,
  attributes: Record<string, string>,
): Promise<{ url: string; arn: string }> {
  const rebase = (url: string | undefined): string => {
    if (!url) throw new Error(`No URL for queue ${name}`);
    return endpoint ? new URL(new URL(url).pathname, endpoint).href : url;
  };
  let rebased: string;
  try {
    rebased = rebase(
      (await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl,
    );
  } catch (error) {
    // CreateQueue is idempotent only for identical attributes; converge a persisted queue instead.
    // fauxqs names the error `AWS.SimpleQueueService.QueueNameExists`, so match on the name.
    if (!(error instanceof Error && /QueueNameExists|QueueAlreadyExists/.test(error.name))) throw error;
    rebased = rebase((await client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl);
    await client.send(new SetQueueAttributesCommand({ QueueUrl: rebased, Attributes: attributes }));
  }
  const found = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: rebased, AttributeNames: ['QueueArn'] }),
  );
  const arn = found.Attributes?.QueueArn;
  if (!arn) throw new Error(`No ARN for queue ${name}`);
  return { url: rebased, arn };
}

function ignoreMissing(error: unknown): void {
  const name = error instanceof Error ? error.name : '';
  if (!/NotFound|NonExistentQueue|QueueDoesNotExist/.test(name)) throw error;
}
