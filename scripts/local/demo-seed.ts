import { existsSync, readFileSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { writePrivateFile } from './private-files';
import { TenantSeeder } from './tenant-seed';

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
 * Creates the demo organization (with its signing key, sealed by `sealer`), API key and account, or
 * reuses them when the data survived a restart; the account's webhook URL is set to this run's demo
 * receiver.
 */
export async function seedDemo(
  client: DynamoDBDocumentClient,
  tableName: string,
  receiverUrl: string,
  statePath: string,
  sealer?: SecretSealer,
): Promise<DemoOrganization> {
  const seeder = new TenantSeeder(client, tableName, 'local', sealer);
  let demo: DemoOrganization | undefined;
  if (existsSync(statePath)) {
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as DemoOrganization;
    const org = await new DynamoDirectoryStore(client, tableName).getOrganization(saved.orgId);
    if (org) demo = { ...saved, webhookToken: org.webhookToken };
  }
  demo ??= { ...(await seeder.tenant('Demo organization')), iban: DEMO_IBAN };
  await seeder.account(demo.orgId, { iban: demo.iban, webhookUrl: receiverUrl });
  writePrivateFile(statePath, `${JSON.stringify(demo, null, 2)}\n`);
  return demo;
}
