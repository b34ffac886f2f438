/**
 * Per-test-file isolation on the shared emulators: a unique prefix, freshly provisioned table and
 * queues, and SDK clients pointed at them.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import {
  applyLocalAwsEnv,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type LocalEndpoints,
} from '../../scripts/local/emulators';
import {
  deprovisionResources,
  type ProvisionedResources,
  provisionResources,
} from '../../scripts/local/provision';

/** Provisioned resources plus clients for them. */
export interface IsolatedResources extends ProvisionedResources {
  readonly prefix: string;
  readonly endpoints: LocalEndpoints;
  readonly dynamodb: DynamoDBClient;
  readonly documents: DynamoDBDocumentClient;
  readonly streams: DynamoDBStreamsClient;
  readonly sqs: SQSClient;
  /** Deletes the table and queues and closes the clients. */
  destroy(): Promise<void>;
}

/** Options of {@link isolatedResources}. */
export interface IsolatedResourcesOptions {
  /** Readable part of the prefix; a random suffix keeps it unique. */
  readonly label?: string;
  /** Redrive limit of the delivery queue (e.g. 2 to reach the DLQ quickly). */
  readonly maxReceiveCount?: number;
  /** Visibility timeout of the delivery queue (e.g. 1 s to see a thrown batch again quickly). */
  readonly visibilityTimeoutSeconds?: number;
}

/**
 * The emulator endpoints of this run. Also points the AWS SDK environment at them, so code under test
 * that builds its own clients (handlers, links) reaches the emulators too. Each test file runs in its
 * own worker process, so this does not leak between files.
 */
export function testEndpoints(): LocalEndpoints {
  // Typed as always given, but only the `emulators` project's global setup provides it.
  const endpoints: LocalEndpoints | undefined = inject('heraldEndpoints');
  if (!endpoints) {
    throw new Error('This test file needs the emulators: list it in NEEDS_EMULATORS (vitest.config.ts)');
  }
  applyLocalAwsEnv(endpoints);
  return endpoints;
}

/** A prefix no other test file or run uses. */
export function uniquePrefix(label = 'test'): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Provisions a table and queues under a unique prefix and returns clients for them. */
export async function isolatedResources(options: IsolatedResourcesOptions = {}): Promise<IsolatedResources> {
  const endpoints = testEndpoints();
  const prefix = uniquePrefix(options.label);
  const config = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const dynamodb = new DynamoDBClient({ ...config, endpoint: endpoints.dynamodb });
  const streams = new DynamoDBStreamsClient({ ...config, endpoint: endpoints.dynamodb });
  const sqs = new SQSClient({ ...config, endpoint: endpoints.sqs });
  const resources = await provisionResources({
    prefix,
    dynamodb,
    sqs,
    sqsEndpoint: endpoints.sqs,
    maxReceiveCount: options.maxReceiveCount,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
  });
  const documents = DynamoDBDocumentClient.from(dynamodb);
  return {
    ...resources,
    prefix,
    endpoints,
    dynamodb,
    documents,
    streams,
    sqs,
    destroy: async () => {
      await deprovisionResources(resources, { dynamodb, sqs });
      for (const client of [documents, dynamodb, streams, sqs]) client.destroy();
    },
  };
}

/** This file's own table, with a document client marshalled as the functions' (`lambdas/adapters/aws-clients.ts`). */
export interface IsolatedTable {
  readonly documents: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Closes the client and deletes the table and queues. */
  destroy(): Promise<void>;
}

/** Provisions {@link isolatedResources} and the document client the adapters under test use. */
export async function isolatedTable(label: string): Promise<IsolatedTable> {
  const resources = await isolatedResources({ label });
  const documents = DynamoDBDocumentClient.from(resources.dynamodb, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return {
    documents,
    tableName: resources.tableName,
    destroy: async () => {
      documents.destroy();
      await resources.destroy();
    },
  };
}
