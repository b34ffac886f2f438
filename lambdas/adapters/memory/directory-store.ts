import { ibanHoldsEventsError, ibanTakenError } from '#domain/account-ownership';
import { addressKey } from '#domain/endpoints/address';
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { Account, AccountTombstone, Organization, PreviousToken, SignatureScheme } from '#domain/model';
import type {
  AccountPage,
  AccountPageQuery,
  AccountWrite,
  DirectoryStore,
  ReadOptions,
  WatermarkMove,
} from '#domain/ports';
import type { PreviousSigningKey, SigningKey } from '#domain/signing/signing-keys';
import type { InMemoryEndpointHealthStore } from './endpoint-health-store';

/**
 * {@link DirectoryStore} in memory, with the DynamoDB adapter's rules: an organization is created once,
 * an IBAN stays with the organization that registered it (also as a tombstone after a deletion, until
 * the tombstone is removed; re-creating by that organization revives it, with the sequence floor the
 * tombstone kept and retention raised), an update keeps `createdAt`,
 * an account without a webhook URL has none stored, tombstones are invisible to account reads and
 * listings, and accounts list in IBAN order. It also holds the accounts' extra endpoints (`endpoints`, by
 * `addressKey`, as the DynamoDB account partition does; `InMemoryEndpointStore` writes them), whose
 * order marks it moves. The maps are public so tests can seed and inspect state;
 * `reads` counts every read call (`consistentReads` the strongly consistent ones), for the consumer's
 * read-per-batch tests. Given a {@link InMemoryEndpointHealthStore}, accounts show the health it holds, as
 * the DynamoDB account item carries it.
 */
export class InMemoryDirectoryStore implements DirectoryStore {
  readonly organizations = new Map<string, Organization>();
  readonly accounts = new Map<string, Account>();
  readonly tombstones = new Map<string, AccountTombstone>();
  /** Extra endpoints by `addressKey` (`<IBAN>#<id>`), without their health (the health store has it). */
  readonly endpoints = new Map<string, Endpoint>();
  /** Read calls, and the index entries listings read (for bound tests). */
  readonly reads = { getOrganization: 0, getAccount: 0, listedEntries: 0 };
  readonly consistentReads = { getOrganization: 0, getAccount: 0 };
  /** The settings item's values. */
  readonly settings: { eventRetentionDays?: number; usagePlanId?: string } = {};

  constructor(readonly health?: InMemoryEndpointHealthStore) {}

  /** Seeds an organization (`org-1` by default) with a fixed webhook token. */
  addOrganization(id = 'org-1'): Organization {
    const org = {
      id,
      name: 'Acme',
      webhookToken: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    this.organizations.set(id, org);
    return org;
  }

  /** Seeds an account (of `org-1` by default) and tells the health store who owns it. */
  addAccount(account: Partial<Account> & { iban: string }): Account {
    const stored = {
      orgId: 'org-1',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
      ...account,
    };
    this.accounts.set(account.iban, stored);
    this.tombstones.delete(account.iban);
    this.health?.owners.set(account.iban, stored.orgId);
    return stored;
  }

  async getOrganization(id: string, options: ReadOptions = {}): Promise<Organization | undefined> {
    this.reads.getOrganization += 1;
    if (options.consistent) this.consistentReads.getOrganization += 1;
    return this.organizations.get(id);
  }

  async createOrganization(org: Organization): Promise<void> {
    if (this.organizations.has(org.id)) throw new Error(`organization ${org.id} exists (condition failed)`);
    this.organizations.set(org.id, org);
  }

  async setWebhookToken(orgId: string, token: string, previous?: PreviousToken): Promise<boolean> {
    const org = this.organizations.get(orgId);
    if (!org) return false;
    this.organizations.set(orgId, { ...org, webhookToken: token, previousWebhookToken: previous });
    return true;
  }

  async setSigningKey(orgId: string, key: SigningKey, previous?: PreviousSigningKey): Promise<boolean> {
    const org = this.organizations.get(orgId);
    if (!org) return false;
    this.organizations.set(orgId, { ...org, signingKey: key, previousSigningKey: previous });
    return true;
  }

  async setSignatureSchemes(orgId: string, schemes: readonly SignatureScheme[]): Promise<boolean> {
    const org = this.organizations.get(orgId);
    if (!org) return false;
    this.organizations.set(orgId, { ...org, signatureSchemes: [...schemes] });
    return true;
  }

  async setOpsWebhookUrl(orgId: string, url: string | null): Promise<boolean> {
    const org = this.organizations.get(orgId);
    if (!org) return false;
    this.organizations.set(orgId, { ...org, opsWebhookUrl: url ?? undefined });
    // As the adapter: the operational webhook's health starts afresh (only where there is one).
    const ops = addressKey({ iban: '', orgId, operational: true });
    if (this.health?.health.has(ops))
      this.health.health.set(ops, { state: 'healthy', consecutiveFailures: 0 });
    return true;
  }

  async getAccount(iban: string, options: ReadOptions = {}): Promise<Account | undefined> {
    this.reads.getAccount += 1;
    if (options.consistent) this.consistentReads.getAccount += 1;
    const account = this.accounts.get(iban);
    if (!account || !this.health) return account;
    return { ...account, health: this.health.get(iban) };
  }

  async putAccount(account: AccountWrite): Promise<Account> {
    const existing = this.accounts.get(account.iban);
    if (existing && existing.orgId !== account.orgId) throw ibanTakenError(account.iban);
    const tombstone = this.tombstones.get(account.iban);
    if (tombstone && tombstone.orgId !== account.orgId) throw ibanHoldsEventsError(account.iban);
    this.tombstones.delete(account.iban);
    // As the adapter: a URL sets it, null removes it, undefined keeps the stored one.
    const webhookUrl =
      account.webhookUrl === undefined ? existing?.webhookUrl : (account.webhookUrl ?? undefined);
    const stored: Account = {
      iban: account.iban,
      orgId: account.orgId,
      ...(webhookUrl === undefined ? {} : { webhookUrl }),
      ...((existing?.endpointId ?? account.endpointId) === undefined
        ? {}
        : { endpointId: existing?.endpointId ?? account.endpointId }),
      // As the adapter: an absent order keeps the stored one, `concurrent` removes it; the watermark stays.
      ...((account.deliveryOrder ?? existing?.deliveryOrder) === 'ordered'
        ? { deliveryOrder: 'ordered' }
        : {}),
      ...(existing?.settledThrough === undefined ? {} : { settledThrough: existing.settledThrough }),
      ...((existing?.sequenceFloor ?? tombstone?.sequenceFloor) === undefined
        ? {}
        : { sequenceFloor: existing?.sequenceFloor ?? tombstone?.sequenceFloor }),
      // A put that makes it ordered starts a new order epoch.
      ...(account.deliveryOrder === 'ordered' || existing?.orderEpoch !== undefined
        ? { orderEpoch: (existing?.orderEpoch ?? 0) + (account.deliveryOrder === 'ordered' ? 1 : 0) }
        : {}),
      // As the adapter: each subscription field set, removed (null) or kept; the extra endpoints' count kept.
      ...kept('eventTypes', account.eventTypes, existing?.eventTypes),
      ...kept('filter', account.filter, existing?.filter),
      ...kept('description', account.description, existing?.description),
      ...(existing?.endpointCount === undefined ? {} : { endpointCount: existing.endpointCount }),
      createdAt: existing?.createdAt ?? account.updatedAt,
      updatedAt: account.updatedAt,
      // The summary is the endpoint store's to write; an account put keeps it, as DynamoDB's update does.
      ...(existing?.security ? { security: existing.security } : {}),
    };
    this.accounts.set(account.iban, stored);
    this.health?.owners.set(account.iban, stored.orgId);
    // As the adapter, whose write answers the whole item: the endpoint's health with it.
    return this.health ? { ...stored, health: this.health.get(account.iban) } : stored;
  }

  async deleteAccount(tombstone: AccountTombstone): Promise<Account | undefined> {
    const existing = this.accounts.get(tombstone.iban);
    if (existing?.orgId !== tombstone.orgId) return undefined;
    this.accounts.delete(tombstone.iban);
    this.health?.owners.delete(tombstone.iban);
    this.health?.health.delete(tombstone.iban);
    const floor = Math.max(tombstone.sequenceFloor ?? 0, existing.sequenceFloor ?? 0);
    const { sequenceFloor: _given, ...kept } = tombstone;
    this.tombstones.set(tombstone.iban, floor > 0 ? { ...kept, sequenceFloor: floor } : kept);
    return existing;
  }

  async advanceSettledThrough(
    iban: string,
    orgId: string,
    move: WatermarkMove,
    extra?: string,
  ): Promise<boolean> {
    const { from, to, epoch } = move;
    const order = this.orderOf(iban, orgId, extra);
    if (!order || (order.settledThrough ?? 0) !== from || (order.orderEpoch ?? 0) !== epoch) return false;
    this.setOrder(iban, extra, { settledThrough: to });
    return true;
  }

  async restartOrder(iban: string, orgId: string, to: number, extra?: string): Promise<void> {
    const order = this.orderOf(iban, orgId, extra);
    if (!order) return;
    const lowered = (order.settledThrough ?? 0) > to ? { settledThrough: to } : {};
    this.setOrder(iban, extra, { ...lowered, orderEpoch: (order.orderEpoch ?? 0) + 1 });
  }

  async startOrder(iban: string, orgId: string, through: number, extra?: string): Promise<void> {
    const order = this.orderOf(iban, orgId, extra);
    if (order?.deliveryOrder === 'ordered' && (order.settledThrough ?? 0) < through) {
      this.setOrder(iban, extra, { settledThrough: through });
    }
  }

  /** The order marks of the organization's endpoint (the account for its default one), if it has it. */
  private orderOf(
    iban: string,
    orgId: string,
    extra: string | undefined,
  ): Pick<Account, 'deliveryOrder' | 'settledThrough' | 'orderEpoch'> | undefined {
    const holder =
      extra === undefined ? this.accounts.get(iban) : this.endpoints.get(addressKey({ iban, orgId, extra }));
    return holder?.orgId === orgId ? holder : undefined;
  }

  private setOrder(
    iban: string,
    extra: string | undefined,
    marks: Pick<Account, 'settledThrough' | 'orderEpoch'>,
  ): void {
    if (extra === undefined) {
      const account = this.accounts.get(iban);
      if (account) this.accounts.set(iban, { ...account, ...marks });
      return;
    }
    const key = addressKey({ iban, orgId: '', extra });
    const endpoint = this.endpoints.get(key);
    if (endpoint) this.endpoints.set(key, { ...endpoint, ...marks });
  }

  async raiseSequenceFloor(iban: string, orgId: string, floor: number): Promise<void> {
    const account = this.accounts.get(iban);
    if (account?.orgId === orgId && (account.sequenceFloor ?? 0) < floor) {
      this.accounts.set(iban, { ...account, sequenceFloor: floor });
    }
    const tombstone = this.tombstones.get(iban);
    if (tombstone?.orgId === orgId && (tombstone.sequenceFloor ?? 0) < floor) {
      this.tombstones.set(iban, { ...tombstone, sequenceFloor: floor });
    }
  }

  async getAccountTombstone(iban: string): Promise<AccountTombstone | undefined> {
    return this.tombstones.get(iban);
  }

  async removeAccountTombstone(iban: string, orgId: string): Promise<boolean> {
    if (this.tombstones.get(iban)?.orgId !== orgId) return false;
    return this.tombstones.delete(iban);
  }

  async listAccounts(orgId: string, query: AccountPageQuery): Promise<AccountPage> {
    const offset = (query.page - 1) * query.perPage;
    const all = [...this.accounts.values()]
      .filter(
        (account) => account.orgId === orgId && (query.after === undefined || account.iban > query.after),
      )
      .sort((a, b) => (a.iban < b.iban ? -1 : 1));
    // The adapter reads the index only up to one entry past the page.
    this.reads.listedEntries += Math.min(all.length, offset + query.perPage + 1);
    return {
      accounts: all.slice(offset, offset + query.perPage),
      hasMore: all.length > offset + query.perPage,
    };
  }

  async getEventRetentionDays(): Promise<number | undefined> {
    return this.settings.eventRetentionDays;
  }

  async getUsagePlanId(): Promise<string | undefined> {
    return this.settings.usagePlanId;
  }
}

/** A field as a write leaves it: set to the value given, removed by null, else what was stored. */
function kept<K extends string, T>(
  name: K,
  given: T | null | undefined,
  stored: T | undefined,
): { [P in K]?: T } {
  const value = given === undefined ? stored : (given ?? undefined);
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: T };
}
