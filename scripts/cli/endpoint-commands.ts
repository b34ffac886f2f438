/**
 * The CLI's endpoint commands: an account's webhook endpoints listed, shown, added, changed and removed
 * (its default one is the account's `webhook_url`, which `account put` also sets).
 */
import { adminRoute, bodyOf } from './admin-route';
import type { Command } from './command';
import { ENDPOINT_SECURITY_USAGE, endpointSecurityFields } from './endpoint-security-flags';
import { type Flags, required, UsageError } from './flags';

/** The flags of an endpoint's settings, for the usage text. */
const SETTINGS_USAGE = `[--event-types TYPE,TYPE…|none] [--filter JSON|none] [--description TEXT|none]
      [--delivery-order concurrent|ordered] [--enabled true|false] ${ENDPOINT_SECURITY_USAGE}`;

/** The `endpoint …` commands, in the order the usage text lists them. */
export const ENDPOINT_COMMANDS: Readonly<Record<string, Command>> = {
  'endpoint list': {
    usage:
      "endpoint list --iban IBAN   (the account's webhook endpoints, its default one first, with health)",
    route: 'adminListEndpoints',
    run: (call, flags) =>
      bodyOf(call(...adminRoute('adminListEndpoints', { iban: required(flags, 'iban') }))),
  },
  'endpoint show': {
    usage: 'endpoint show --iban IBAN --endpoint-id EP_ID',
    route: 'adminGetEndpoint',
    run: (call, flags) => bodyOf(call(...adminRoute('adminGetEndpoint', endpointOf(flags)))),
  },
  'endpoint add': {
    usage: `endpoint add --iban IBAN --url URL ${SETTINGS_USAGE}
      (a further endpoint of the account, at most 10 with its default one; without --event-types and
      --filter it hears of every event)`,
    route: 'adminAddEndpoint',
    run: (call, flags) =>
      bodyOf(
        call(...adminRoute('adminAddEndpoint', { iban: required(flags, 'iban') }), {
          url: required(flags, 'url'),
          ...settingsFields(flags),
        }),
      ),
  },
  'endpoint update': {
    usage: `endpoint update --iban IBAN --endpoint-id EP_ID [--url URL] ${SETTINGS_USAGE}
      (changes what the flags give: a flag left out keeps what is stored, none removes it)`,
    route: 'adminUpdateEndpoint',
    run: (call, flags) =>
      bodyOf(
        call(...adminRoute('adminUpdateEndpoint', endpointOf(flags)), {
          ...(flags.url === undefined ? {} : { url: required(flags, 'url') }),
          ...settingsFields(flags),
        }),
      ),
  },
  'endpoint remove': {
    usage: `endpoint remove --iban IBAN --endpoint-id EP_ID   (a further endpoint, with its material; the
      default one stays with its account: account put --webhook-url none)`,
    route: 'adminRemoveEndpoint',
    run: async (call, flags) => {
      await call(...adminRoute('adminRemoveEndpoint', endpointOf(flags)));
      return { removed: flags['endpoint-id'] };
    },
  },
};

/** The path parameters of one endpoint. */
function endpointOf(flags: Flags): { iban: string; endpoint_id: string } {
  return { iban: required(flags, 'iban'), endpoint_id: required(flags, 'endpoint-id') };
}

/** The body fields the settings flags given ask for; a flag left out is left out. */
function settingsFields(flags: Flags): Record<string, unknown> {
  const types = removable(flags, 'event-types');
  const filter = removable(flags, 'filter');
  const description = removable(flags, 'description');
  const enabled = flags.enabled;
  if (enabled !== undefined && enabled !== 'true' && enabled !== 'false') {
    throw new UsageError('--enabled takes true or false.');
  }
  return {
    ...(types === undefined
      ? {}
      : { event_types: types === null ? null : types.split(',').map((type) => type.trim()) }),
    ...(filter === undefined ? {} : { filter: filter === null ? null : parseFilter(filter) }),
    ...(description === undefined ? {} : { description }),
    ...(flags['delivery-order'] === undefined ? {} : { delivery_order: flags['delivery-order'] }),
    ...(enabled === undefined ? {} : { enabled: enabled === 'true' }),
    ...endpointSecurityFields(flags),
  };
}

/** A flag's text, null for `none`, undefined when left out. */
function removable(flags: Flags, flag: 'event-types' | 'filter' | 'description'): string | null | undefined {
  const value = flags[flag];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${flag} takes a value, or none.`);
  return value === 'none' ? null : value;
}

/** `--filter`'s JSON; the API checks the filter itself and names what is wrong. */
function parseFilter(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError('--filter must be JSON (an object), or none.');
  }
}
