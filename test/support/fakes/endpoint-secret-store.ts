/**
 * {@link EndpointSecretStore} in memory, over an {@link InMemoryDirectoryStore}'s accounts (whose
 * summary it sets, as the DynamoDB adapter sets the account item's): material by IBAN, kept with the
 * organization that stored it first. `reads` counts reads of material.
 */
import type { EndpointSecrets, EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';
import type { EndpointSecretStore } from '#domain/endpoint-security/ports';
import type { InMemoryDirectoryStore } from './directory-store';

export class FakeEndpointSecretStore implements EndpointSecretStore {
  readonly items = new Map<string, EndpointSecrets & { orgId: string }>();
  reads = 0;

  constructor(private readonly directory: InMemoryDirectoryStore) {}

  async getSecrets(iban: string): Promise<EndpointSecrets | undefined> {
    this.reads += 1;
    return this.items.get(iban);
  }

  removeSecrets = async (iban: string, orgId: string): Promise<void> => {
    if (this.items.get(iban)?.orgId === orgId) this.items.delete(iban);
  };

  async saveSecurity(
    iban: string,
    orgId: string,
    summary: EndpointSecuritySummary,
    secrets: EndpointSecrets,
  ): Promise<boolean> {
    const held = this.items.get(iban);
    if (held && held.orgId !== orgId) return false;
    this.items.set(iban, { ...secrets, orgId });
    const account = this.directory.accounts.get(iban);
    if (!account || account.orgId !== orgId) return false;
    const empty = Object.values(summary).every((value) => value === undefined);
    this.directory.accounts.set(iban, { ...account, endpointSecurity: empty ? undefined : summary });
    return true;
  }
}
