/**
 * The CLI's commands: for each its usage line, the operator route of `ADMIN_ROUTES` it calls (its method
 * and path come from that table, so the CLI cannot drift from the API) and what it prints.
 */
import type { AdminOperation } from '#config/routes';
import { MAX_PER_PAGE } from '#http/paging';
import { adminRoute, bodyOf, org, overlapBody } from './admin-route';
import type { ApiAnswer, ApiCall } from './api-client';
import { ENDPOINT_SECURITY_USAGE, endpointSecurityFields } from './endpoint-security-flags';
import { type Flags, integer, required, timestamp, UsageError } from './flags';
import { SIGNING_COMMANDS } from './signing-commands';

export { adminRoute } from './admin-route';

/**
 * One command: its line of the usage text, the operator route it calls (none: `publish`, which calls
 * `POST /events`), and its run.
 */
export interface Command {
  readonly usage: string;
  readonly route?: AdminOperation;
  readonly run: (call: ApiCall, flags: Flags) => Promise<unknown>;
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

/**
 * Calls a paged listing and follows its `Link: rel="next"` to the end (each page's cost is bounded on the
 * server), joining the pages. The next link's query is applied to `path`, so the CLI keeps calling the API
 * it was pointed at, whatever base URL the API writes into its links.
 */
async function allPages(call: ApiCall, path: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let query: string | undefined = `?per_page=${MAX_PER_PAGE}`;
  while (query !== undefined) {
    const answer = await call('GET', `${path}${query}`);
    items.push(...(answer.body as unknown[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(answer.link ?? '')?.[1];
    query = next === undefined ? undefined : new URL(next).search;
  }
  return items;
}

/** Each command by its words (`org create`), in the order the usage text lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  'org create': {
    usage: 'org create --name NAME',
    route: 'createOrganization',
    run: (call, flags) =>
      bodyOf(call(...adminRoute('createOrganization'), { name: required(flags, 'name') })),
  },
  'org show': {
    usage: 'org show --org ORG_ID',
    route: 'getOrganization',
    run: (call, flags) => bodyOf(call(...adminRoute('getOrganization', org(flags)))),
  },
  'org usage-key': {
    usage: 'org usage-key --org ORG_ID   (an organization created before the usage plan existed)',
    route: 'registerUsageKey',
    run: (call, flags) => bodyOf(call(...adminRoute('registerUsageKey', org(flags)))),
  },
  'api-key create': {
    usage:
      'api-key create --org ORG_ID [--name NAME] [--scope read|manage] [--expires-at "YYYY-MM-DD HH:MM:SS"]',
    route: 'createApiKey',
    run: (call, flags) => {
      // The route takes epoch seconds; the operator writes the time as every answer shows it.
      const expiry = timestamp(flags, 'expires-at');
      const expiresAt = expiry === undefined ? undefined : Date.parse(expiry) / 1000;
      return bodyOf(
        call(...adminRoute('createApiKey', org(flags)), {
          name: flags.name ?? 'cli',
          scope: flags.scope ?? 'manage',
          ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
        }),
      );
    },
  },
  'api-key list': {
    usage: 'api-key list --org ORG_ID',
    route: 'listApiKeys',
    run: (call, flags) => bodyOf(call(...adminRoute('listApiKeys', org(flags)))),
  },
  'api-key revoke': {
    usage: 'api-key revoke --org ORG_ID --key-id KEY_ID',
    route: 'revokeApiKey',
    run: async (call, flags) => {
      await call(...adminRoute('revokeApiKey', { ...org(flags), key_id: required(flags, 'key-id') }));
      return { revoked: flags['key-id'] };
    },
  },
  'account put': {
    usage: `account put --org ORG_ID --iban IBAN [--webhook-url URL] [--delivery-order concurrent|ordered] ${ENDPOINT_SECURITY_USAGE}`,
    route: 'putAccount',
    run: (call, flags) =>
      bodyOf(
        call(...adminRoute('putAccount', { iban: required(flags, 'iban') }), {
          org: required(flags, 'org'),
          ...(flags['webhook-url'] ? { webhook_url: flags['webhook-url'] } : {}),
          ...(flags['delivery-order'] ? { delivery_order: flags['delivery-order'] } : {}),
          ...endpointSecurityFields(flags),
        }),
      ),
  },
  'account delete': {
    usage: `account delete --iban IBAN [--erase [--org ORG_ID]]   (without --erase the IBAN stays reserved for its
      organization while its events remain; --erase: also every event of the account, then the IBAN is free;
      --org: only for an account deleted before IBANs were reserved)`,
    route: 'deleteAccount',
    run: async (call, flags) => {
      const [method, path] = adminRoute('deleteAccount', { iban: required(flags, 'iban') });
      const orgFlag = typeof flags.org === 'string' ? flags.org : undefined;
      if (!flags.erase) {
        const query = orgFlag === undefined ? '' : `?org=${encodeURIComponent(orgFlag)}`;
        await call(method, `${path}${query}`);
        return { deleted: flags.iban };
      }
      type Erased = Step & { iban: string; org_id: string; deleted: boolean; erased_events: number };
      let deleted = false;
      const done = await untilDone<Erased>((previous) => {
        deleted ||= previous?.deleted === true;
        const orgId = previous?.org_id ?? orgFlag;
        const query = new URLSearchParams({ erase: 'true' });
        if (orgId !== undefined) query.set('org', orgId);
        if (previous?.cursor !== undefined) query.set('cursor', previous.cursor);
        return call(method, `${path}?${query}`);
      }, 'erased_events');
      return { iban: done.iban, deleted: deleted || done.deleted, erased_events: done.erased_events };
    },
  },
  'account list': {
    usage: 'account list --org ORG_ID   (every account: follows the pages of 100)',
    route: 'listOrganizationAccounts',
    run: (call, flags) => allPages(call, adminRoute('listOrganizationAccounts', org(flags))[1]),
  },
  'account enable': {
    usage: `account enable --iban IBAN [--recover-since "YYYY-MM-DD HH:MM:SS"]   (webhook endpoint healthy again;
    with --recover-since, redeliver its failed and skipped events since then, step by step until done)`,
    route: 'adminEnableEndpoint',
    run: async (call, flags) => {
      const since = flags['recover-since'];
      const route = adminRoute('adminEnableEndpoint', { iban: required(flags, 'iban') });
      // Each recovery step examines a bounded part of the status indexes; its cursor goes on past it.
      const done = await untilDone<Step & { iban: string; webhook_health: string; queued: string[] }>(
        (previous) =>
          call(
            ...route,
            since === undefined
              ? undefined
              : { recover_since: since, ...(previous?.cursor ? { cursor: previous.cursor } : {}) },
          ),
        'queued',
      );
      return { iban: done.iban, webhook_health: done.webhook_health, queued: done.queued };
    },
  },
  'account replay': {
    usage: `account replay --iban IBAN --after-sequence N   (send the account's events after sequence N again,
      whatever their status, in sequence order for an ordered account; chunk by chunk until done)`,
    route: 'adminReplayAccount',
    run: async (call, flags) => {
      const after = integer(flags, 'after-sequence', 'a whole number, 0 or more');
      if (after === undefined) throw new UsageError('--after-sequence is required.');
      const route = adminRoute('adminReplayAccount', { iban: required(flags, 'iban') });
      type ReplayStep = Step & { queued: string[]; used_up: string[]; next_after_sequence: number };
      const done = await untilDone<ReplayStep>(
        (previous) => call(...route, { after_sequence: previous?.next_after_sequence ?? after }),
        'queued',
      );
      return { queued: done.queued, next_after_sequence: done.next_after_sequence };
    },
  },
  'portal-link': {
    usage: 'portal-link --org ORG_ID [--scope read|manage] [--ttl-minutes N]   (default read, 60 min)',
    route: 'createPortalLink',
    run: (call, flags) => {
      const ttl = integer(flags, 'ttl-minutes', 'whole minutes from 1 to 1440');
      const body = { scope: flags.scope ?? 'read', ...(ttl === undefined ? {} : { ttl_minutes: ttl }) };
      return bodyOf(call(...adminRoute('createPortalLink', org(flags)), body));
    },
  },
  'token rotate': {
    usage: 'token rotate --org ORG_ID [--overlap-hours H]   (default 24: the old token also signs meanwhile)',
    route: 'rotateOrganizationToken',
    run: (call, flags) =>
      bodyOf(call(...adminRoute('rotateOrganizationToken', org(flags)), overlapBody(flags))),
  },
  'token show': {
    usage: 'token show --org ORG_ID',
    route: 'getOrganization',
    run: async (call, flags) => {
      const answer = await call(...adminRoute('getOrganization', org(flags)));
      const shown = answer.body as { webhook_token: string; token_id: string; previous: unknown };
      return { webhook_token: shown.webhook_token, token_id: shown.token_id, previous: shown.previous };
    },
  },
  ...SIGNING_COMMANDS,
  publish: {
    usage:
      'publish --account IBAN --type TYPE --payload JSON [--id UUID] [--triggered-at "YYYY-MM-DD HH:MM:SS"]',
    run: async (call, flags) => {
      let payload: unknown;
      try {
        payload = JSON.parse(required(flags, 'payload'));
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError('--payload must be JSON (an object).');
      }
      const answer = await call('POST', '/events', {
        account: required(flags, 'account'),
        type: required(flags, 'type'),
        payload,
        ...(flags.id === undefined ? {} : { id: flags.id }),
        ...(flags['triggered-at'] === undefined ? {} : { triggered_at: timestamp(flags, 'triggered-at') }),
      });
      const event = answer.body as { id: string; webhook_status: string };
      // 201: recorded now; 200: the same id and content were recorded before.
      return { id: event.id, created: answer.status === 201, webhook_status: event.webhook_status };
    },
  },
  'events requeue': {
    usage: 'events requeue --org ORG_ID [--older-than MINUTES]   (pending events with no queued delivery)',
    route: 'requeueEvents',
    run: async (call, flags) => {
      const minutes = integer(flags, 'older-than', 'whole minutes (≥ 0)') ?? 15;
      const route = adminRoute('requeueEvents', org(flags));
      // Each call examines a bounded number of events; the cursor goes on where the last one stopped.
      const done = await untilDone<Step & { queued: string[] }>(
        (previous) =>
          call(...route, {
            older_than_minutes: minutes,
            ...(previous?.cursor ? { cursor: previous.cursor } : {}),
          }),
        'queued',
      );
      return { queued: done.queued };
    },
  },
  'events redeliver': {
    usage: 'events redeliver --org ORG_ID --id EVENT_ID',
    route: 'redeliverOrganizationEvent',
    run: (call, flags) =>
      bodyOf(call(...adminRoute('redeliverOrganizationEvent', { ...org(flags), id: required(flags, 'id') }))),
  },
  'events reset': {
    usage: 'events reset --org ORG_ID',
    route: 'resetOrganizationWebhooks',
    run: async (call, flags) => {
      const route = adminRoute('resetOrganizationWebhooks', org(flags));
      // Each call queues one bounded chunk; the events it tried (queued or with no cycle left) leave the
      // status indexes, so the next call goes on with older ones.
      const done = await untilDone<Step & { queued: string[] }>(() => call(...route), 'queued');
      return { queued: done.queued };
    },
  },
  'events migrate': {
    usage:
      'events migrate --org ORG_ID   (once after upgrading: events stored before sequences into their account logs)',
    route: 'migrateEvents',
    run: async (call, flags) => {
      const route = adminRoute('migrateEvents', org(flags));
      type MigrationStep = Step & { migrated: number; pending: number };
      let pending = 0;
      const done = await untilDone<MigrationStep>(async (previous) => {
        const answer = await call(...route, previous?.cursor ? { cursor: previous.cursor } : {});
        pending += (answer.body as MigrationStep).pending;
        return answer;
      }, 'migrated');
      return { migrated: done.migrated, pending };
    },
  },
  'events index-statuses': {
    usage:
      'events index-statuses --org ORG_ID   (once after upgrading: failed/skipped events into their indexes)',
    route: 'indexEventStatuses',
    run: async (call, flags) => {
      const route = adminRoute('indexEventStatuses', org(flags));
      const done = await untilDone<Step & { indexed: number }>(
        (previous) => call(...route, previous?.cursor ? { cursor: previous.cursor } : {}),
        'indexed',
      );
      return { indexed: done.indexed };
    },
  },
};
