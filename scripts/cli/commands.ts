/**
 * The CLI's commands: for each its usage line, the operator route of `ADMIN_ROUTES` it calls (its method
 * and path come from that table, so the CLI cannot drift from the API) and what it prints.
 */
import { ACCOUNT_COMMANDS } from './account-commands';
import { adminRoute, bodyOf, org, overlapBody } from './admin-route';
import type { Command } from './command';
import { ENDPOINT_COMMANDS } from './endpoint-commands';
import { EVENT_COMMANDS } from './event-commands';
import { EVENT_TYPE_COMMANDS } from './event-type-commands';
import { integer, required, timestamp, UsageError } from './flags';
import { OPERATIONAL_COMMANDS } from './operational-commands';
import { publishFile } from './publish-file';
import { SIGNING_COMMANDS } from './signing-commands';

export { adminRoute } from './admin-route';
export type { Command } from './command';

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
  ...ACCOUNT_COMMANDS,
  ...ENDPOINT_COMMANDS,
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
  ...OPERATIONAL_COMMANDS,
  publish: {
    usage:
      'publish --account IBAN --type TYPE --payload JSON [--type-version N] [--id UUID] [--triggered-at "YYYY-MM-DD HH:MM:SS"]\n' +
      '  publish --file EVENTS.ndjson   (one event a line; resumes from EVENTS.ndjson.herald-progress)',
    run: async (call, flags) => {
      if (flags.file !== undefined) {
        const summary = await publishFile(call, required(flags, 'file'), process.stderr);
        // Not every line is stored: the summary says which and why; a script sees it in the exit code.
        if (summary.refused.length + summary.unsent.length > 0) process.exitCode = 1;
        return summary;
      }
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
        ...(flags['type-version'] === undefined
          ? {}
          : { version: integer(flags, 'type-version', 'a version of the type (1, 2, …)') }),
        ...(flags.id === undefined ? {} : { id: flags.id }),
        ...(flags['triggered-at'] === undefined ? {} : { triggered_at: timestamp(flags, 'triggered-at') }),
      });
      const event = answer.body as { id: string; webhook_status: string; type_version: number | null };
      // 201: recorded now; 200: the same id and content were recorded before.
      return {
        id: event.id,
        created: answer.status === 201,
        webhook_status: event.webhook_status,
        type_version: event.type_version,
      };
    },
  },
  ...EVENT_COMMANDS,
  ...EVENT_TYPE_COMMANDS,
};
