/**
 * {@link EndpointStore} in memory, over an {@link InMemoryDirectoryStore} (which holds the extra endpoints
 * beside the accounts, as the DynamoDB account partition does), with the adapter's rules: an addition is
 * refused for another organization's or a deleted account and past the limit, counted on the account;
 * a removal takes the endpoint's material with it; health comes from the directory's health store, which
 * is told who owns each endpoint.
 */
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import type { EndpointSecrets, EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';
import { addressKey } from '#domain/endpoints/address';
import { type Endpoint, tooManyEndpoints } from '#domain/endpoints/endpoint';
import { NotFoundError } from '#domain/errors';
import type { EndpointStore, EndpointWrite, NewEndpoint } from '#domain/ports';
import type { InMemoryDirectoryStore } from './directory-store';

/** An endpoint's material as stored by `addressKey`, with its organization, summary and version. */
export interface StoredMaterial {
  readonly orgId: string;
  readonly secrets: EndpointSecrets;
  readonly summary: EndpointSecuritySummary;
  readonly version: number;
}

/** The extra endpoints in memory. */
export class InMemoryEndpointStore implements EndpointStore {
  /** Calls of {@link listEndpoints} (the consumer's read per batch). */
  reads = 0;

  /**
   * @param materials - where endpoints' material is kept by `addressKey` (the test double of the
   *   material store shares it); an addition writes the new endpoint's there
   */
  constructor(
    private readonly directory: InMemoryDirectoryStore,
    private readonly materials = new Map<string, StoredMaterial>(),
  ) {}

  async listEndpoints(iban: string, orgId: string): Promise<Endpoint[]> {
    this.reads += 1;
    const health = this.directory.health;
    return [...this.directory.endpoints.values()]
      .filter((endpoint) => endpoint.iban === iban && endpoint.orgId === orgId)
      .map((endpoint) => (health ? { ...endpoint, health: health.get(addressKey(endpoint)) } : endpoint))
      .sort((a, b) => (a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? -1 : 1));
  }

  async addEndpoint(endpoint: NewEndpoint): Promise<Endpoint> {
    const { iban, orgId, id } = endpoint;
    const account = this.directory.accounts.get(iban);
    if (account?.orgId !== orgId) throw new NotFoundError(`No account ${iban}.`);
    if ((account.endpointCount ?? 0) >= MAX_ENDPOINTS_PER_ACCOUNT - 1) {
      throw tooManyEndpoints(iban);
    }
    const stored: Endpoint = {
      iban,
      orgId,
      extra: id,
      id,
      url: endpoint.url,
      eventTypes: endpoint.eventTypes,
      filter: endpoint.filter,
      description: endpoint.description,
      ...(endpoint.deliveryOrder === 'ordered'
        ? { deliveryOrder: 'ordered', orderEpoch: 1, settledThrough: endpoint.settledThrough ?? 0 }
        : {}),
      security: endpoint.security?.summary,
      createdAt: endpoint.createdAt,
      updatedAt: endpoint.createdAt,
    };
    const key = addressKey(stored);
    this.directory.endpoints.set(key, stored);
    this.directory.accounts.set(iban, { ...account, endpointCount: (account.endpointCount ?? 0) + 1 });
    this.directory.health?.owners.set(key, orgId);
    if (endpoint.disabled) {
      const { at, reason } = endpoint.disabled;
      this.directory.health?.health.set(key, {
        state: 'disabled',
        since: at,
        reason,
        consecutiveFailures: 0,
      });
    }
    if (endpoint.security) {
      const { summary, material } = endpoint.security;
      this.materials.set(key, { orgId, secrets: material, summary, version: 1 });
    }
    return { ...stored, health: this.directory.health?.get(key) };
  }

  async updateEndpoint(write: EndpointWrite): Promise<Endpoint | undefined> {
    const key = addressKey({ iban: write.iban, orgId: write.orgId, extra: write.id });
    const endpoint = this.directory.endpoints.get(key);
    if (endpoint?.orgId !== write.orgId) return undefined;
    const pick = <T>(given: T | null | undefined, stored: T | undefined) =>
      given === undefined ? stored : (given ?? undefined);
    const ordered = write.deliveryOrder === undefined ? endpoint.deliveryOrder : write.deliveryOrder;
    const updated: Endpoint = {
      ...endpoint,
      url: write.url ?? endpoint.url,
      eventTypes: pick(write.eventTypes, endpoint.eventTypes),
      filter: pick(write.filter, endpoint.filter),
      description: pick(write.description, endpoint.description),
      deliveryOrder: ordered === 'ordered' ? 'ordered' : undefined,
      orderEpoch: write.deliveryOrder === 'ordered' ? (endpoint.orderEpoch ?? 0) + 1 : endpoint.orderEpoch,
      settledThrough:
        write.deliveryOrder === 'ordered' && write.settledThrough !== undefined
          ? write.settledThrough
          : endpoint.settledThrough,
      updatedAt: write.updatedAt,
    };
    this.directory.endpoints.set(key, updated);
    return { ...updated, health: this.directory.health?.get(key) };
  }

  async removeEndpoint(iban: string, orgId: string, id: string): Promise<boolean> {
    const account = this.directory.accounts.get(iban);
    const key = addressKey({ iban, orgId, extra: id });
    if (account?.orgId !== orgId || this.directory.endpoints.get(key)?.orgId !== orgId) return false;
    this.directory.endpoints.delete(key);
    this.directory.accounts.set(iban, { ...account, endpointCount: (account.endpointCount ?? 1) - 1 });
    this.forget(key);
    return true;
  }

  async removeEndpoints(iban: string, orgId: string): Promise<void> {
    for (const endpoint of await this.listEndpoints(iban, orgId)) {
      const key = addressKey(endpoint);
      this.directory.endpoints.delete(key);
      this.forget(key);
    }
  }

  /** What goes with an endpoint: its material, its health and its owner. */
  private forget(key: string): void {
    this.materials.delete(key);
    this.directory.health?.owners.delete(key);
    this.directory.health?.health.delete(key);
  }
}
