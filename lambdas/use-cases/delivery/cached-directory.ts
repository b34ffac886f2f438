import type { EndpointHealth } from '#domain/delivery/endpoint-health';
import type { Account, Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import type { DeliveryDirectory } from './deliver-event';

interface Entry<T> {
  readonly value: Promise<T>;
  readonly expires: number;
}

/**
 * Keeps account and organization reads for a short time: a batch of ten events of one account costs one
 * read of each, and a changed webhook URL or rotated token takes effect within `ttlMs`.
 */
export class CachedDirectory implements DeliveryDirectory {
  private readonly accounts = new Map<string, Entry<Account | undefined>>();
  private readonly orgs = new Map<string, Entry<Organization | undefined>>();

  constructor(
    private readonly directory: Pick<DirectoryStore, 'getAccount' | 'getOrganization'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  getAccount(iban: string): Promise<Account | undefined> {
    return this.cached(this.accounts, iban, () => this.directory.getAccount(iban));
  }

  getOrganization(id: string): Promise<Organization | undefined> {
    return this.cached(this.orgs, id, () => this.directory.getOrganization(id));
  }

  /**
   * The account read again (and cached): a `disabled` endpoint is confirmed before each of its events
   * settles `skipped`, so an operator's enable takes effect at once. Costs a read per such event only.
   */
  refreshAccount(iban: string): Promise<Account | undefined> {
    this.accounts.delete(iban);
    return this.getAccount(iban);
  }

  /**
   * Puts the endpoint health a write returned into the cached account, so this consumer acts on a
   * circuit that opened or closed at once instead of after the TTL.
   */
  remember(iban: string, health: EndpointHealth): void {
    const hit = this.accounts.get(iban);
    if (!hit) return;
    const value = hit.value.then((account) => account && { ...account, webhookHealth: health });
    value.catch(() => undefined);
    this.accounts.set(iban, { value, expires: hit.expires });
  }

  private cached<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    // The promise is cached, so concurrent messages share one read; a failed read is not kept.
    const value = load();
    map.set(key, { value, expires: this.now() + this.ttlMs });
    value.catch(() => map.delete(key));
    return value;
  }
}
