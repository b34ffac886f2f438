import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * SDK clients, built once per execution environment by the handler modules. Region, credentials and
 * endpoints come from the standard AWS variables (`AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB`, …), which is
 * how the local runtime points the same code at the emulators.
 */
export function createDocumentClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** An SQS client (see {@link createDocumentClient} for configuration). */
export function createSqsClient(): SQSClient {
  return new SQSClient({});
}
