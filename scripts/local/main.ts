/**
 * `npm start`: Herald on this machine, with no AWS account. Starts the emulators and the runtime, seeds a
 * demo organization whose account delivers to a built-in receiver, prints how to call the API, writes
 * `.herald/local.json` for the CLI and the tests, and stops every child process on Ctrl-C or SIGTERM.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { ORGANIZATION_USAGE_DEFAULTS } from '#config/limits';
import { parseRetrySchedule } from '#domain/delivery/retry-schedule';
import { DEFAULT_LINK_MINUTES } from '#domain/portal-access';
import { toPortalLinkView } from '#http/portal/portal-view';
import { mintPortalLink } from '#use-cases/organizations/portal-access';
import { showWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { type DemoReceiver, startDemoReceiver } from './demo-receiver';
import { seedDemo } from './demo-seed';
import { LOCAL_REGION } from './emulators';
import { LOCAL_INFO_PATH, writeLocalInfo } from './local-info';
import { ensurePrivateTree } from './private-files';
import { startLocalRuntime } from './runtime';

const STATE_DIR = '.herald';
const { values } = parseArgs({ options: { 'in-memory': { type: 'boolean', default: false } } });
const inMemory = values['in-memory'] === true;
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`PORT must be an integer from 1 to 65535, got "${process.env.PORT}".`);
  process.exit(2);
}

if (process.env.HERALD_RETRY_SCHEDULE !== undefined) {
  try {
    parseRetrySchedule(process.env.HERALD_RETRY_SCHEDULE);
  } catch (error) {
    console.error(`HERALD_RETRY_SCHEDULE: ${(error as Error).message}`);
    process.exit(2);
  }
}

// Owner-only, and tightened if an earlier run left it readable: it holds keys and the emulators' data.
ensurePrivateTree(STATE_DIR);
const runtime = await startLocalRuntime({
  port,
  dataDir: inMemory ? undefined : join(STATE_DIR, 'data'),
  retrySchedule: process.env.HERALD_RETRY_SCHEDULE,
  // Each organization's share of the API, as the stack's usage plan meters it.
  organizationUsage: ORGANIZATION_USAGE_DEFAULTS,
}).catch((error: unknown) => {
  // A start that cannot work (no java, the data directory in use) is explained in one line.
  console.error(`Herald did not start: ${(error as Error).message}`);
  process.exit(1);
});
let receiver: DemoReceiver | undefined;
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Herald…`);
  rmSync(LOCAL_INFO_PATH, { force: true });
  await receiver?.close();
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

const client = createDocumentClient();
const directory = new DynamoDirectoryStore(client, runtime.tableName);
let orgId = '';
receiver = await startDemoReceiver(
  async () => {
    const { webhookToken, previousWebhookToken } = await showWebhookToken(directory, orgId);
    return previousWebhookToken ? [webhookToken, previousWebhookToken.token] : [webhookToken];
  },
  (line) => console.log(line),
);
const demo = await seedDemo(client, runtime.tableName, receiver.url, join(STATE_DIR, 'demo.json'));
orgId = demo.orgId;

writeLocalInfo('.', runtime);
const portal = toPortalLinkView(
  await mintPortalLink(directory, new DynamoPortalLinkStore(client, runtime.tableName), demo.orgId, {
    scope: 'manage',
    ttlMinutes: DEFAULT_LINK_MINUTES,
  }),
  runtime.baseUrl,
);

const { accessKeyId, secretAccessKey } = runtime.credentials;
console.log(`
Herald is running at ${runtime.baseUrl} (${inMemory ? 'in memory' : `data in ${STATE_DIR}/data`})

  ORG_ID=${demo.orgId}
  API_KEY=${demo.apiKey}
  ACCOUNT=${demo.iban}  → webhooks to the demo receiver at ${receiver.url}

  Portal: ${runtime.baseUrl}/portal (sign in with the API key, or once with this link, valid ${DEFAULT_LINK_MINUTES} min:
    ${portal.url} )
  More links: npx herald portal-link --org ${demo.orgId} [--scope read|manage] [--ttl-minutes N]

  Local operator credentials for the IAM routes (POST /events, /admin/…), region ${LOCAL_REGION},
  also in ${LOCAL_INFO_PATH}:
  AWS_ACCESS_KEY_ID=${accessKeyId}
  AWS_SECRET_ACCESS_KEY=${secretAccessKey}

  curl -s ${runtime.baseUrl}/health
  curl -s -H "Authorization: Bearer ${demo.apiKey}" ${runtime.baseUrl}/events
  npx herald publish --account ${demo.iban} --type credit_transfer_status_change --payload '{"transfer_id":"tr_1","status":"settled"}'

Ctrl-C stops everything.`);
