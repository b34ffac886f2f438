import { existsSync, readFileSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { createOrganization, putAccount } from '#use-cases/administer';
import { writePrivateFile } from './private-files';

/** The demo organization's credentials (kept in `.herald/demo.json`, since keys are stored hashed). */
export interface DemoOrganization {
  readonly orgId: string;
  readonly apiKey: string;
  readonly webhookToken: string;
  readonly iban: string;
}

/** The demo account: a valid German IBAN from the IBAN standard's examples. */
export const DEMO_IBAN = 'DE89370400440532013000';

/**
 * Creates the demo organization, API key and account, or reuses them when the data survived a restart;
 * the account's webhook URL is set to this run's demo receiver.
 */
export async function seedDemo(
  client: DynamoDBDocumentClient,
  tableName: string,
  receiverUrl: string,
  statePath: string,
): Promise<DemoOrganization> {
  const directory = new DynamoDirectoryStore(client, tableName);
  let demo: DemoOrganization | undefined;
  if (existsSync(statePath)) {
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as DemoOrganization;
    const org = await directory.getOrganization(saved.orgId);
    if (org) demo = { ...saved, webhookToken: org.webhookToken };
  }
  if (!demo) {
    const created = await createOrganization(
      directory,
      new DynamoApiKeyStore(client, tableName),
      'Demo organization',
    );
    demo = {
      orgId: created.id,
      apiKey: created.api_key,
      webhookToken: created.webhook_token,
      iban: DEMO_IBAN,
    };
  }
  await putAccount(directory, { orgId: demo.orgId, iban: demo.iban, webhookUrl: receiverUrl }, 'local');
  writePrivateFile(statePath, `${JSON.stringify(demo, null, 2)}\n`);
  return demo;
}
