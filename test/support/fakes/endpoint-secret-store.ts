/**
 * {@link EndpointSecretStore} in memory, over an {@link InMemoryDirectoryStore}'s accounts and extra
 * endpoints (whose summary it sets, as the DynamoDB adapter sets the endpoint's item): material by
 * `addressKey` with its summary, organization and version, saved with the summary as one step. An
 * {@link InMemoryEndpointStore} given `items` writes an added endpoint's material here. `reads` counts
 * reads of material.
 */
import type { StoredMaterial } from '#adapters/memory/endpoint-store';
import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type {
  EndpointSecretStore,
  EndpointSecuritySave,
  SaveOutcome,
  StoredEndpointSecurity,
} from '#domain/endpoint-security/ports';
import { addressKey, type EndpointAddress } from '#domain/endpoints/address';
import type { InMemoryDirectoryStore } from './directory-store';

export class FakeEndpointSecretStore implements EndpointSecretStore {
  readonly items = new Map<string, StoredMaterial>();
  reads = 0;

  constructor(private readonly directory: InMemoryDirectoryStore) {}

  async getSecrets(endpoint: EndpointAddress): Promise<EndpointSecrets | undefined> {
    this.reads += 1;
    const held = this.items.get(addressKey(endpoint));
    return held?.orgId === endpoint.orgId ? held.secrets : undefined;
  }

  async readForUpdate(endpoint: EndpointAddress): Promise<StoredEndpointSecurity> {
    const held = this.items.get(addressKey(endpoint));
    return held?.orgId === endpoint.orgId ? held : { version: 0 };
  }

  removeSecrets = async (iban: string, orgId: string): Promise<void> => {
    if (this.items.get(iban)?.orgId === orgId) this.items.delete(iban);
  };

  async saveSecurity(endpoint: EndpointAddress, save: EndpointSecuritySave): Promise<SaveOutcome> {
    const { iban, orgId } = endpoint;
    const key = addressKey(endpoint);
    const account = this.directory.accounts.get(iban);
    const extra = endpoint.extra === undefined ? undefined : this.directory.endpoints.get(key);
    if (account?.orgId !== orgId || (endpoint.extra !== undefined && extra?.orgId !== orgId)) {
      return 'not-found';
    }
    const held = this.items.get(key);
    if ((held?.orgId === orgId ? held.version : 0) !== save.version) return 'conflict';
    this.items.set(key, { orgId, secrets: save.secrets, summary: save.summary, version: save.version + 1 });
    const empty = Object.values(save.summary).every((value) => value === undefined);
    const summary = empty ? undefined : save.summary;
    if (extra) this.directory.endpoints.set(key, { ...extra, security: summary });
    else this.directory.accounts.set(iban, { ...account, security: summary });
    return 'saved';
  }
}
