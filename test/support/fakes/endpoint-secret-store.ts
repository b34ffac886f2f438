/**
 * {@link EndpointSecretStore} in memory, over an {@link InMemoryDirectoryStore}'s accounts (whose
 * summary it sets, as the DynamoDB adapter sets the account item's): material by IBAN with its summary,
 * organization and version, saved with the summary as one step. `reads` counts reads of material.
 */
import type { EndpointSecrets, EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';
import type {
  EndpointSecretStore,
  EndpointSecuritySave,
  SaveOutcome,
  StoredEndpointSecurity,
} from '#domain/endpoint-security/ports';
import type { InMemoryDirectoryStore } from './directory-store';

/** One stored endpoint item. */
interface Held {
  readonly orgId: string;
  readonly secrets: EndpointSecrets;
  readonly summary: EndpointSecuritySummary;
  readonly version: number;
}

export class FakeEndpointSecretStore implements EndpointSecretStore {
  readonly items = new Map<string, Held>();
  reads = 0;

  constructor(private readonly directory: InMemoryDirectoryStore) {}

  async getSecrets(iban: string, orgId: string): Promise<EndpointSecrets | undefined> {
    this.reads += 1;
    const held = this.items.get(iban);
    return held?.orgId === orgId ? held.secrets : undefined;
  }

  async readForUpdate(iban: string, orgId: string): Promise<StoredEndpointSecurity> {
    const held = this.items.get(iban);
    return held?.orgId === orgId ? held : { version: 0 };
  }

  removeSecrets = async (iban: string, orgId: string): Promise<void> => {
    if (this.items.get(iban)?.orgId === orgId) this.items.delete(iban);
  };

  async saveSecurity(iban: string, orgId: string, save: EndpointSecuritySave): Promise<SaveOutcome> {
    const account = this.directory.accounts.get(iban);
    if (!account || account.orgId !== orgId) return 'not-found';
    const held = this.items.get(iban);
    if ((held?.orgId === orgId ? held.version : 0) !== save.version) return 'conflict';
    this.items.set(iban, { orgId, secrets: save.secrets, summary: save.summary, version: save.version + 1 });
    const empty = Object.values(save.summary).every((value) => value === undefined);
    this.directory.accounts.set(iban, { ...account, endpointSecurity: empty ? undefined : save.summary });
    return 'saved';
  }
}
