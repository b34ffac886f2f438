import { parseArgs } from 'node:util';
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
import { mintPortalLink, parsePortalLinkRequest } from '#use-cases/portal-access';
import { requeuePending } from '#use-cases/redeliver-events';
import { resolveTarget } from './target';

const USAGE = `Usage: herald <command> [flags]
  org create --name NAME
  org token rotate --org ORG_ID
  api-key create --org ORG_ID
  account put --org ORG_ID --iban IBAN [--webhook-url URL]
  account list --org ORG_ID
  portal-link --org ORG_ID [--scope read|manage] [--ttl-minutes N]   (default read, 60 min)
  events requeue --org ORG_ID [--older-than MINUTES]   (pending events with no queued delivery)
  publish --account IBAN --type TYPE --payload JSON [--id UUID] [--triggered-at ISO] [--retention-days N]
Target: the local runtime (.herald/local.json) by default; AWS with --table NAME --base-url URL [--region R]
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
  'retention-days': { type: 'string' },
  table: { type: 'string' },
  region: { type: 'string' },
  'base-url': { type: 'string' },
  'url-policy': { type: 'string' },
  'queue-url': { type: 'string' },
  'older-than': { type: 'string' },
  scope: { type: 'string' },
  'ttl-minutes': { type: 'string' },
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
    case 'org create':
      return createOrganization(directory, required('name'));
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
    case 'portal-link': {
      const ttl = values['ttl-minutes'];
      const request = parsePortalLinkRequest({
        scope: values.scope ?? 'read',
        ...(ttl === undefined ? {} : { ttl_minutes: Number(ttl) }),
      });
      return mintPortalLink(directory, required('org'), request, target.baseUrl);
    }
    case 'account list':
      return listAccounts(directory, required('org'), target.baseUrl);
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
    case 'publish': {
      let payload: unknown;
      try {
        payload = JSON.parse(required('payload'));
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError('--payload must be JSON (an object).');
      }
      const retention = values['retention-days'];
      const retentionDays = retention === undefined ? undefined : Number(retention);
      if (retentionDays !== undefined && !(Number.isInteger(retentionDays) && retentionDays > 0)) {
        throw new UsageError(
          '--retention-days must be a positive integer (the stack output EventRetentionDays).',
        );
      }
      const publish = createPublisher({
        tableName: target.tableName,
        baseUrl: target.baseUrl,
        client,
        retentionDays,
      });
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
