/**
 * `npm start`: Herald on this machine, with no AWS account. Starts the emulators and the runtime, seeds a
 * demo organization whose account delivers to a built-in receiver, prints how to call the API, writes
 * `.herald/local.json` for the CLI and the tests, and stops every child process on Ctrl-C or SIGTERM.
 */

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { LocalSecretSealer } from '#adapters/secrets/local-secret-sealer';
import { ORGANIZATION_USAGE_DEFAULTS } from '#config/limits';
import { parseRetrySchedule } from '#delivery/retry-rule';
import { CREDIT_TRANSFER_STATUS_CHANGE } from '#domain/event-types/credit-transfer-status-change';
import { latestVersion } from '#domain/event-types/model';
import { DEFAULT_LINK_MINUTES } from '#domain/portal-access';
import { toPortalLinkView } from '#http/portal/portal-view';
import { mintPortalLink } from '#use-cases/organizations/portal-access';
import { showWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { type DemoReceiver, startDemoReceiver } from './demo-receiver';
import { seedDemo } from './demo-seed';
import { findFreePort, LOCAL_REGION } from './emulators';
import { LOCAL_INFO_PATH, writeLocalInfo } from './local-info';
import { ensurePrivateTree } from './private-files';
import { startLocalRuntime } from './runtime';
import { SHELL_ENV_PATH, shellExports, writeShellEnv } from './shell-env';

const STATE_DIR = '.herald';
/** The port when `PORT` is not set and it is free; the banner and `.herald/env` name the one in use. */
const DEFAULT_PORT = 3000;
/** The payload the "Try" line publishes: the catalog's example of a settled transfer. */
const TRY_PAYLOAD = latestVersion(CREDIT_TRANSFER_STATUS_CHANGE).examples.find(
  (example) => example.name === 'settled',
)?.payload;
/** The project's `node_modules/.bin`: `herald` (linked by `npm install`) and the project's Node. */
const BIN_DIR = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));
const { values } = parseArgs({ options: { 'in-memory': { type: 'boolean', default: false } } });
const inMemory = values['in-memory'] === true;
const port = process.env.PORT === undefined ? await findFreePort(DEFAULT_PORT) : Number(process.env.PORT);
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
  rmSync(SHELL_ENV_PATH, { force: true });
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
const demo = await seedDemo(
  client,
  runtime.tableName,
  receiver.url,
  join(STATE_DIR, 'demo.json'),
  new LocalSecretSealer(runtime.secretsKeyFile),
);
orgId = demo.orgId;

writeLocalInfo('.', runtime);
const portal = toPortalLinkView(
  await mintPortalLink(directory, new DynamoPortalLinkStore(client, runtime.tableName), demo.orgId, {
    scope: 'manage',
    ttlMinutes: DEFAULT_LINK_MINUTES,
  }),
  runtime.baseUrl,
);

const exports = shellExports({
  binDir: BIN_DIR,
  url: runtime.baseUrl,
  apiKey: demo.apiKey,
  orgId: demo.orgId,
  account: demo.iban,
  region: LOCAL_REGION,
  ...runtime.credentials,
});
writeShellEnv(SHELL_ENV_PATH, exports);
console.log(`
Herald is running at ${runtime.baseUrl} (${inMemory ? 'in memory' : `data in ${STATE_DIR}/data`})

  In another terminal, in this directory, run "source ${SHELL_ENV_PATH}", which sets:
${exports.map((line) => `    ${line}`).join('\n')}
  PATH: the \`herald\` CLI and the project's Node. HERALD_*: this API, the demo organization's API key, id
  and account. AWS_*: the local operator's key for the IAM routes (POST /events, /admin/…), region
  ${LOCAL_REGION}; in that shell it replaces your own AWS credentials.

  Webhooks of ${demo.iban} go to the demo receiver (${receiver.url}), which prints a line for each one:
  "verified" with its id and type once its Standard Webhooks signature checks out, else "REJECTED" and why.

  Operational notices for the platform team: each minute with notices, one summary to the local topic
  ${runtime.noticeTopic.topicArn}, which delivers to the queue ${runtime.noticeTopic.inboxUrl}.

  Portal: ${runtime.baseUrl}/portal (sign in with the API key, or once with this link, valid ${DEFAULT_LINK_MINUTES} min:
    ${portal.url} )

  Try:
    herald publish --account "$HERALD_ACCOUNT" --type credit_transfer_status_change --payload '${JSON.stringify(TRY_PAYLOAD)}'
    curl -s -H "Authorization: Bearer $HERALD_API_KEY" "$HERALD_URL/events"

Ctrl-C stops everything.`);
