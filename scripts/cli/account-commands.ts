/**
 * The CLI's account commands: an account's endpoint, its deletion (and erasure), the organization's list,
 * re-enabling an endpoint (with recovery), replaying its log and sending it a test event.
 */
import { TEST_EVENTS_PER_WINDOW } from '#config/limits';
import { adminRoute, bodyOf, org } from './admin-route';
import { allPages, type Command, cursorOf, type Step, untilDone } from './command';
import { ENDPOINT_SECURITY_USAGE, endpointSecurityFields } from './endpoint-security-flags';
import { type Flags, integer, required, UsageError } from './flags';

/** The `account …` commands, in the order the usage text lists them. */
export const ACCOUNT_COMMANDS: Readonly<Record<string, Command>> = {
  'account put': {
    usage: `account put --org ORG_ID --iban IBAN [--webhook-url URL|none] [--delivery-order concurrent|ordered]
      ${ENDPOINT_SECURITY_USAGE}
      (creates the account, or changes what the flags give: a flag left out keeps what is stored, none
      removes it; without a URL, e.g. after --webhook-url none, the account's events are skipped)`,
    route: 'putAccount',
    run: (call, flags) =>
      bodyOf(
        call(...adminRoute('putAccount', { iban: required(flags, 'iban') }), {
          org: required(flags, 'org'),
          ...webhookUrlField(flags),
          ...(flags['delivery-order'] === undefined ? {} : { delivery_order: flags['delivery-order'] }),
          ...endpointSecurityFields(flags),
        }),
      ),
  },
  'account delete': {
    usage: `account delete --iban IBAN [--erase [--org ORG_ID]]   (without --erase the IBAN stays reserved for its
      organization while its events remain; --erase: also every event and operational notice of the account, then the IBAN is free;
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
      type Erased = Step & {
        iban: string;
        org_id: string;
        deleted: boolean;
        erased_events: number;
        erased_notices: number;
      };
      let deleted = false;
      const done = await untilDone<Erased>(
        (previous) => {
          deleted ||= previous?.deleted === true;
          const orgId = previous?.org_id ?? orgFlag;
          const query = new URLSearchParams({ erase: 'true' });
          if (orgId !== undefined) query.set('org', orgId);
          if (previous?.cursor !== undefined) query.set('cursor', previous.cursor);
          return call(method, `${path}?${query}`);
        },
        'erased_events',
        'erased_notices',
      );
      return {
        iban: done.iban,
        deleted: deleted || done.deleted,
        erased_events: done.erased_events,
        erased_notices: done.erased_notices,
      };
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
          call(...route, since === undefined ? undefined : { recover_since: since, ...cursorOf(previous) }),
        'queued',
      );
      return { iban: done.iban, webhook_health: done.webhook_health, queued: done.queued };
    },
  },
  'account replay': {
    usage: `account replay --iban IBAN --after-sequence N [--endpoint-id EP_ID]   (send the account's events
      after sequence N again, whatever their status, in sequence order for an ordered account; chunk by chunk
      until done; with --endpoint-id, those routed to that endpoint, there alone)`,
    route: 'adminReplayAccount',
    run: async (call, flags) => {
      const after = integer(flags, 'after-sequence', 'a whole number, 0 or more');
      if (after === undefined) throw new UsageError('--after-sequence is required.');
      const route = adminRoute('adminReplayAccount', { iban: required(flags, 'iban') });
      const at = flags['endpoint-id'] === undefined ? {} : { endpoint_id: required(flags, 'endpoint-id') };
      type ReplayStep = Step & { queued: string[]; used_up: string[]; next_after_sequence: number };
      const done = await untilDone<ReplayStep>(
        (previous) => call(...route, { after_sequence: previous?.next_after_sequence ?? after, ...at }),
        'queued',
      );
      return { queued: done.queued, next_after_sequence: done.next_after_sequence };
    },
  },
  'account test-event': {
    usage: `account test-event --iban IBAN --type TYPE [--version N] [--example NAME] [--endpoint-id EP_ID]
      (send the type's example to the account's webhook URL, or the endpoint named, now, marked as a test,
      signed as its organization's webhooks; prints what the receiver answered; nothing is stored; at most
      ${TEST_EVENTS_PER_WINDOW} a minute per account)`,
    route: 'adminSendTestEvent',
    run: (call, flags) => {
      const version = integer(flags, 'version', 'a version number, 1 or more');
      const example = flags.example;
      if (example !== undefined && (typeof example !== 'string' || example === '')) {
        throw new UsageError("--example takes the name of one of the version's examples.");
      }
      return bodyOf(
        call(...adminRoute('adminSendTestEvent', { iban: required(flags, 'iban') }), {
          type: required(flags, 'type'),
          ...(version === undefined ? {} : { version }),
          ...(example === undefined ? {} : { example }),
          ...(flags['endpoint-id'] === undefined ? {} : { endpoint_id: required(flags, 'endpoint-id') }),
        }),
      );
    },
  },
};

/** The `webhook_url` that `--webhook-url` asks for: a URL, or `none` (null) to remove it; absent keeps it. */
function webhookUrlField(flags: Flags): { webhook_url?: string | null } {
  const value = flags['webhook-url'];
  if (value === undefined) return {};
  if (typeof value !== 'string' || value === '') throw new UsageError('--webhook-url takes a URL, or none.');
  return { webhook_url: value === 'none' ? null : value };
}
