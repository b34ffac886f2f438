import { parseArgs } from 'node:util';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ApiGatewayUsageKeys } from '#adapters/apigateway/usage-keys';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { hostChecker } from '#adapters/http/host-check';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { HeraldError } from '#domain/errors';
import { parseUrlPolicy } from '#domain/webhook-url';
import { createPublisher } from '#lambdas/publisher';
import {
  createApiKey,
  createOrganization,
  listAccounts,
  putAccount,
  rotateWebhookToken,
} from '#use-cases/administer';
import { deleteAccount } from '#use-cases/delete-account';
import { requeuePending } from '#use-cases/redeliver-events';
import { indexStatuses } from '#use-cases/reset-webhooks';
import { resolveTarget } from './target';

const USAGE = `Usage: herald <command> [flags]
  org create --name NAME [--usage-plan-id ID]
  org usage-key --org ORG_ID --usage-plan-id ID   (an organization created before its usage plan existed)
  org token rotate --org ORG_ID
  api-key create --org ORG_ID
  account put --org ORG_ID --iban IBAN [--webhook-url URL]
  account list --org ORG_ID
  account delete --org ORG_ID --iban IBAN [--erase]   (--erase: also delete every event of the account)
  events requeue --org ORG_ID [--older-than MINUTES]   (pending events with no queued delivery)
  events index-statuses --org ORG_ID   (once after upgrading: failed/skipped events into their indexes)
  publish --account IBAN --type TYPE --payload JSON [--id UUID] [--triggered-at ISO]
Target: the local runtime (.herald/local.json) by default; AWS with --table NAME --base-url URL [--region R]
  [--usage-plan-id ID (the stack output UsagePlanId: registers each new organization's key)]
  [--queue-url URL (events requeue)]
  [--url-policy public-https|allow-private|allow-http|allow-private-http|local]`;

/** A usage mistake: exit code 2 and the usage text. */
class UsageError extends Error {}

const OPTIONS = {
  name: { type: 'string' },
  org: { type: 'string' },
  iban: { type: 'string' },
  'webhook-url': { type: 'string' },
  account: { type: 'string' },
  type: { type: 'string' },
  payload: { type: 'string' },
  id: { type: 'string' },
  'triggered-at': { type: 'string' },
  erase: { type: 'boolean' },
  table: { type: 'string' },
  region: { type: 'string' },
  'base-url': { type: 'string' },
  'url-policy': { type: 'string' },
  'queue-url': { type: 'string' },
  'older-than': { type: 'string' },
  'usage-plan-id': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // Unknown flags and flags without their value are usage mistakes, not crashes.
    process.stderr.write(`herald: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

const { values, positionals } = parseCommandLine();

function required(flag: keyof typeof values): string {
  const value = values[flag];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${flag} is required.`);
  return value;
}

/** The usage plan's keys when `--usage-plan-id` is given (AWS only: the local gateway meters by org id). */
function usageKeys(): ApiGatewayUsageKeys | undefined {
  const id = values['usage-plan-id'];
  return id === undefined
    ? undefined
    : new ApiGatewayUsageKeys(new APIGatewayClient(values.region ? { region: values.region } : {}), id);
}

async function run(): Promise<unknown> {
  const command = positionals.join(' ');
  if (values.help) return USAGE;
  if (command === '') throw new UsageError('');
  const target = resolveTarget({
    table: values.table,
    region: values.region,
    baseUrl: values['base-url'],
    urlPolicy: values['url-policy'] === undefined ? undefined : parseUrlPolicy(values['url-policy']),
    queueUrl: values['queue-url'],
  });
  const client = createDocumentClient();
  const directory = new DynamoDirectoryStore(client, target.tableName);
  switch (command) {
    case 'org create': {
      const created = await createOrganization(directory, required('name'));
      // In AWS the organization's requests pass the usage plan only once its key is registered.
      await usageKeys()?.register(created.id);
      return created;
    }
    case 'org usage-key': {
      const keys = usageKeys();
      if (!keys) throw new UsageError('--usage-plan-id is required (the stack output UsagePlanId).');
      const orgId = required('org');
      await keys.register(orgId);
      return { org_id: orgId, usage_plan_id: values['usage-plan-id'] };
    }
    case 'org token rotate':
      return rotateWebhookToken(directory, required('org'));
    case 'api-key create':
      return createApiKey(directory, required('org'));
    case 'account put':
      return putAccount(
        directory,
        { orgId: required('org'), iban: required('iban'), webhookUrl: values['webhook-url'] },
        target.urlPolicy,
        target.baseUrl,
        hostChecker(target.urlPolicy),
      );
    case 'account list':
      return listAccounts(directory, required('org'), target.baseUrl);
    case 'account delete':
      return deleteAccount(
        { directory, events: new DynamoEventStore(client, target.tableName) },
        required('org'),
        required('iban'),
        { erase: values.erase === true },
      );
    case 'events requeue': {
      if (!target.queueUrl)
        throw new UsageError('--queue-url is required with --table (the stack output QueueUrl).');
      const minutes = Number(values['older-than'] ?? '15');
      if (!Number.isInteger(minutes) || minutes < 0)
        throw new UsageError('--older-than must be whole minutes (≥ 0).');
      const deps = {
        events: new DynamoEventStore(client, target.tableName),
        queue: new SqsDeliveryQueue(createSqsClient(), target.queueUrl),
      };
      return requeuePending(deps, required('org'), new Date(Date.now() - minutes * 60_000).toISOString());
    }
    case 'events index-statuses':
      return indexStatuses(new DynamoEventStore(client, target.tableName), required('org'));
    case 'publish': {
      let payload: unknown;
      try {
        payload = JSON.parse(required('payload'));
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError('--payload must be JSON (an object).');
      }
      const publish = createPublisher({ tableName: target.tableName, baseUrl: target.baseUrl, client });
      const event = await publish({
        account: required('account'),
        type: required('type'),
        payload,
        id: values.id,
        triggeredAt: values['triggered-at'],
      });
      return { id: event.id, created: event.created, webhook_status: event.webhookStatus };
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

try {
  const result = await run();
  process.stdout.write(result === USAGE ? `${USAGE}\n` : `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message ? `herald: ${error.message}\n` : ''}${USAGE}\n`);
    process.exitCode = 2;
  } else {
    const message = error instanceof HeraldError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`herald: ${message}\n`);
    process.exitCode = 1;
  }
}
