/**
 * What the publish use-cases (`recordEvent`, `recordEvents`) run against in a unit test: an injected clock,
 * the in-memory directory and event store, their deps, and one organization with the given accounts.
 */
import type { EventTypeCatalog } from '#domain/event-types/catalog-port';
import { putAccount } from '#use-cases/accounts/accounts';
import { type RecordEventDeps, settingsRetention } from '#use-cases/events/record-event';
import { createOrganization } from '#use-cases/organizations/organizations';
import { InMemoryApiKeyStore } from './fakes/api-key-store';
import { FakeClock } from './fakes/clock';
import { InMemoryDirectoryStore } from './fakes/directory-store';
import { InMemoryEventStore } from './fakes/event-store';

/** The API's base URL the deps carry. */
export const PUBLISH_BASE_URL = 'https://api.example.test/prod';
/** The webhook URL of an account given `hooked: true`. */
export const HOOK_URL = 'https://hooks.example.test/in';

/** One account of the organization: with {@link HOOK_URL} as its webhook URL, or none. */
export interface WorldAccount {
  readonly iban: string;
  readonly hooked: boolean;
}

export interface PublishWorld {
  readonly clock: FakeClock;
  readonly directory: InMemoryDirectoryStore;
  readonly events: InMemoryEventStore;
  readonly deps: RecordEventDeps;
  readonly orgId: string;
}

/** A new world: the organization "Acme" with `accounts`, publishing through `catalog`. */
export async function publishWorld(options: {
  readonly catalog: EventTypeCatalog;
  readonly accounts: readonly WorldAccount[];
  readonly clock?: FakeClock;
}): Promise<PublishWorld> {
  const clock = options.clock ?? new FakeClock('2026-11-21T12:00:00.000Z');
  const directory = new InMemoryDirectoryStore();
  const events = new InMemoryEventStore();
  const deps: RecordEventDeps = {
    events,
    directory,
    baseUrl: PUBLISH_BASE_URL,
    now: clock.date,
    retentionDays: settingsRetention(directory),
    catalog: options.catalog,
  };
  const { organization } = await createOrganization(directory, new InMemoryApiKeyStore(), 'Acme', clock.date);
  for (const { iban, hooked } of options.accounts) {
    await putAccount(
      directory,
      { orgId: organization.id, iban, ...(hooked ? { webhookUrl: HOOK_URL } : {}) },
      'public-https',
    );
  }
  return { clock, directory, events, deps, orgId: organization.id };
}
