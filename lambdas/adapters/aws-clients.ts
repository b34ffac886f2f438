import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { hotLogRetries } from './dynamodb/hot-log-retries';

/**
 * SDK clients, built once per execution environment by the handler modules. Region, credentials and
 * endpoints come from the standard AWS variables (`AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB`, …), which is
 * how the local runtime points the same code at the emulators.
 */
export function createDocumentClient(
  config: Pick<DynamoDBClientConfig, 'retryStrategy'> = {},
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/**
 * The publish path's client (`POST /events`, the library's publishers): its retries keep a hot account
 * log's partition busy under throttling (`dynamodb/hot-log-retries.ts`).
 */
export function createPublishDocumentClient(): DynamoDBDocumentClient {
  return createDocumentClient({ retryStrategy: hotLogRetries() });
}

/** An SQS client (see {@link createDocumentClient} for configuration). */
export function createSqsClient(): SQSClient {
  return new SQSClient({});
}

/** An SNS client (see {@link createDocumentClient} for configuration). */
export function createSnsClient(): SNSClient {
  return new SNSClient({});
}
