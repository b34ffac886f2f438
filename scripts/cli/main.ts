import { parseArgs } from 'node:util';
import { type ApiAnswer, type ApiCall, ApiError, apiClient } from './api-client';
import { resolveTarget } from './target';

const USAGE = `Usage: herald <command> [flags]
  org create --name NAME
  org show --org ORG_ID
  org usage-key --org ORG_ID   (an organization created before the usage plan existed)
  api-key create --org ORG_ID [--name NAME] [--scope read|manage] [--expires-at EPOCH_SECONDS]
  api-key list --org ORG_ID
  api-key revoke --org ORG_ID --key-id KEY_ID
  account put --org ORG_ID --iban IBAN [--webhook-url URL]
  account delete --iban IBAN [--erase [--org ORG_ID]]   (--erase: also every event of the account;
      --org: its organization, to go on with an erasure that was interrupted)
  account list --org ORG_ID
  account enable --iban IBAN [--recover-since "YYYY-MM-DD HH:MM:SS"]   (webhook endpoint healthy again;
    with --recover-since, redeliver its failed and skipped events since then)
  portal-link --org ORG_ID [--scope read|manage] [--ttl-minutes N]   (default read, 60 min)
  token rotate --org ORG_ID [--overlap-hours H]   (default 24: the old token also signs meanwhile)
  token show --org ORG_ID
  publish --account IBAN --type TYPE --payload JSON [--id UUID] [--triggered-at ISO]
  events requeue --org ORG_ID [--older-than MINUTES]   (pending events with no queued delivery)
  events redeliver --org ORG_ID --id EVENT_ID
  events reset --org ORG_ID
  events index-statuses --org ORG_ID   (once after upgrading: failed/skipped events into their indexes)
Every command calls Herald's API, signed with AWS SigV4. Target: the local runtime (.herald/local.json)
by default; a deployed stack with --api-url URL (the stack output ApiUrl) [--region R], using the
default AWS credential chain.`;

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
  'key-id': { type: 'string' },
  scope: { type: 'string' },
  'expires-at': { type: 'string' },
  'overlap-hours': { type: 'string' },
  'triggered-at': { type: 'string' },
  erase: { type: 'boolean' },
  'api-url': { type: 'string' },
  region: { type: 'string' },
  'older-than': { type: 'string' },
  'recover-since': { type: 'string' },
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

/** A whole-number flag, or undefined when absent. */
function integer(flag: keyof typeof values, what: string): number | undefined {
  const text = values[flag];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (typeof text !== 'string' || text === '' || !Number.isInteger(value) || value < 0) {
    throw new UsageError(`--${flag} must be ${what}.`);
  }
  return value;
}

const segment = (value: string): string => encodeURIComponent(value);
const orgPath = (): string => `/admin/organizations/${segment(required('org'))}`;

/** The body of a successful answer: what most commands print. */
async function bodyOf(answer: Promise<ApiAnswer>): Promise<unknown> {
  return (await answer).body;
}

/** A chunked route's answer: what this call did and whether (and where) to go on. */
interface Step {
  readonly more: boolean;
  readonly cursor?: string;
}

/**
 * Calls a chunked route until it says `more: false` (each call's cost is bounded on the server), and
 * accumulates the `collected` field over the calls (numbers summed, lists joined); `call` builds each
 * call from the previous step.
 */
async function untilDone<T extends Step>(
  call: (previous: T | undefined) => Promise<ApiAnswer>,
  collected: keyof T,
): Promise<T> {
  let step: T | undefined;
  let total: unknown;
  do {
    step = (await call(step)).body as T;
    const part = step[collected];
    total = Array.isArray(part)
      ? [...((total as unknown[] | undefined) ?? []), ...part]
      : Number(total ?? 0) + Number(part);
  } while (step.more);
  return { ...step, [collected]: total };
}

/** Each command: the API call it makes, and what it prints. */
const COMMANDS: Readonly<Record<string, (call: ApiCall) => Promise<unknown>>> = {
  'org create': (call) => bodyOf(call('POST', '/admin/organizations', { name: required('name') })),
  'org show': (call) => bodyOf(call('GET', orgPath())),
  'org usage-key': (call) => bodyOf(call('POST', `${orgPath()}/usage-key`)),
  'api-key create': (call) => {
    const expiresAt = integer('expires-at', 'epoch seconds');
    return bodyOf(
      call('POST', `${orgPath()}/api-keys`, {
        name: values.name ?? 'cli',
        scope: values.scope ?? 'manage',
        ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      }),
    );
  },
  'api-key list': (call) => bodyOf(call('GET', `${orgPath()}/api-keys`)),
  'api-key revoke': async (call) => {
    await call('DELETE', `${orgPath()}/api-keys/${segment(required('key-id'))}`);
    return { revoked: values['key-id'] };
  },
  'account put': (call) =>
    bodyOf(
      call('PUT', `/admin/accounts/${segment(required('iban'))}`, {
        org: required('org'),
        ...(values['webhook-url'] ? { webhook_url: values['webhook-url'] } : {}),
      }),
    ),
  'account delete': async (call) => {
    const path = `/admin/accounts/${segment(required('iban'))}`;
    if (!values.erase) {
      const query = values.org === undefined ? '' : `?org=${segment(values.org)}`;
      await call('DELETE', `${path}${query}`);
      return { deleted: values.iban };
    }
    type Erased = Step & { iban: string; org_id: string; deleted: boolean; erased_events: number };
    let deleted = false;
    const done = await untilDone<Erased>((previous) => {
      deleted ||= previous?.deleted === true;
      const org = previous?.org_id ?? values.org;
      const query = new URLSearchParams({ erase: 'true' });
      if (org !== undefined) query.set('org', org);
      if (previous?.cursor !== undefined) query.set('cursor', previous.cursor);
      return call('DELETE', `${path}?${query}`);
    }, 'erased_events');
    return { iban: done.iban, deleted: deleted || done.deleted, erased_events: done.erased_events };
  },
  'account list': (call) => bodyOf(call('GET', `${orgPath()}/accounts`)),
  'account enable': (call) => {
    const since = values['recover-since'];
    const body = since === undefined ? undefined : { recover_since: since };
    return bodyOf(call('POST', `/admin/accounts/${segment(required('iban'))}/enable`, body));
  },
  'token rotate': (call) => {
    const hours = integer('overlap-hours', 'whole hours from 0 to 168');
    const body = hours === undefined ? {} : { overlap_hours: hours };
    return bodyOf(call('POST', `${orgPath()}/webhook-token/rotate`, body));
  },
  'token show': async (call) => {
    const org = (await call('GET', orgPath())).body as { webhook_token: string; previous: unknown };
    return { webhook_token: org.webhook_token, previous: org.previous };
  },
  publish: async (call) => {
    let payload: unknown;
    try {
      payload = JSON.parse(required('payload'));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError('--payload must be JSON (an object).');
    }
    const answer = await call('POST', '/events', {
      account: required('account'),
      type: required('type'),
      payload,
      ...(values.id === undefined ? {} : { id: values.id }),
      ...(values['triggered-at'] === undefined ? {} : { triggered_at: values['triggered-at'] }),
    });
    const event = answer.body as { id: string; webhook_status: string };
    // 201: recorded now; 200: the same id and content were recorded before.
    return { id: event.id, created: answer.status === 201, webhook_status: event.webhook_status };
  },
  'events requeue': async (call) => {
    const minutes = integer('older-than', 'whole minutes (≥ 0)') ?? 15;
    // Each call examines a bounded number of events; the cursor goes on where the last one stopped.
    const done = await untilDone<Step & { queued: string[] }>(
      (previous) =>
        call('POST', `${orgPath()}/events/requeue`, {
          older_than_minutes: minutes,
          ...(previous?.cursor ? { cursor: previous.cursor } : {}),
        }),
      'queued',
    );
    return { queued: done.queued };
  },
  'events redeliver': (call) =>
    bodyOf(call('POST', `${orgPath()}/events/${segment(required('id'))}/redeliver`)),
  'events reset': async (call) => {
    // Each call queues one bounded chunk; the events it tried (queued or with no cycle left) leave the
    // status indexes, so the next call goes on with older ones.
    const done = await untilDone<Step & { queued: string[] }>(
      () => call('POST', `${orgPath()}/webhooks/reset`),
      'queued',
    );
    return { queued: done.queued };
  },
  'events index-statuses': async (call) => {
    const done = await untilDone<Step & { indexed: number }>(
      (previous) =>
        call(
          'POST',
          `${orgPath()}/events/index-statuses`,
          previous?.cursor ? { cursor: previous.cursor } : {},
        ),
      'indexed',
    );
    return { indexed: done.indexed };
  },
  'portal-link': (call) => {
    const ttl = integer('ttl-minutes', 'whole minutes from 1 to 1440');
    const body = { scope: values.scope ?? 'read', ...(ttl === undefined ? {} : { ttl_minutes: ttl }) };
    return bodyOf(call('POST', `${orgPath()}/portal-links`, body));
  },
};

async function run(): Promise<unknown> {
  const command = positionals.join(' ');
  if (values.help) return USAGE;
  if (command === '') throw new UsageError('');
  // The old spelling of `token rotate`.
  const action = COMMANDS[command === 'org token rotate' ? 'token rotate' : command];
  if (!action) throw new UsageError(`Unknown command "${command}".`);
  const target = await resolveTarget({ apiUrl: values['api-url'], region: values.region });
  return action(apiClient(target));
}

try {
  const result = await run();
  process.stdout.write(result === USAGE ? `${USAGE}\n` : `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message ? `herald: ${error.message}\n` : ''}${USAGE}\n`);
    process.exitCode = 2;
  } else {
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`herald: ${message}\n`);
    process.exitCode = 1;
  }
}
