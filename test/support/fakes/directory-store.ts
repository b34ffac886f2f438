import { ConflictError } from '#domain/errors';
import type { Account, Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';

/** A stored API key: its organization and when it was issued. */
export interface StoredApiKey {
  readonly orgId: string;
  readonly createdAt: string;
}

/**
 * {@link DirectoryStore} in memory, with the DynamoDB adapter's rules: an organization or API key hash is
 * created once, an IBAN stays with the organization that registered it, an update keeps `createdAt`, an
 * account without a webhook URL has none stored, and accounts list in IBAN order. The maps are public so
 * tests can seed and inspect state; `reads` counts every read call, for cache tests.
 */
export class InMemoryDirectoryStore implements DirectoryStore {
  readonly organizations = new Map<string, Organization>();
  readonly apiKeys = new Map<string, StoredApiKey>();
  readonly accounts = new Map<string, Account>();
  readonly reads = { getOrganization: 0, getAccount: 0, findOrgIdByApiKeyHash: 0 };

  async getOrganization(id: string): Promise<Organization | undefined> {
    this.reads.getOrganization += 1;
    return this.organizations.get(id);
  }

  async createOrganization(org: Organization): Promise<void> {
    if (this.organizations.has(org.id)) throw new Error(`organization ${org.id} exists (condition failed)`);
    this.organizations.set(org.id, org);
  }

  async setWebhookToken(orgId: string, token: string): Promise<boolean> {
    const org = this.organizations.get(orgId);
    if (!org) return false;
    this.organizations.set(orgId, { ...org, webhookToken: token });
    return true;
  }

  async createApiKey(hash: string, orgId: string, createdAt: string): Promise<void> {
    if (this.apiKeys.has(hash)) throw new Error('API key hash exists (condition failed)');
    this.apiKeys.set(hash, { orgId, createdAt });
  }

  async findOrgIdByApiKeyHash(hash: string): Promise<string | undefined> {
    this.reads.findOrgIdByApiKeyHash += 1;
    return this.apiKeys.get(hash)?.orgId;
  }

  async getAccount(iban: string): Promise<Account | undefined> {
    this.reads.getAccount += 1;
    return this.accounts.get(iban);
  }

  async putAccount(account: Account): Promise<Account> {
    const existing = this.accounts.get(account.iban);
    if (existing && existing.orgId !== account.orgId) {
      throw new ConflictError(`Account ${account.iban} belongs to another organization.`);
    }
    const stored: Account = {
      iban: account.iban,
      orgId: account.orgId,
      ...(account.webhookUrl === undefined ? {} : { webhookUrl: account.webhookUrl }),
      createdAt: existing?.createdAt ?? account.updatedAt,
      updatedAt: account.updatedAt,
    };
    this.accounts.set(account.iban, stored);
    return stored;
  }

  async listAccounts(orgId: string): Promise<Account[]> {
    return [...this.accounts.values()]
      .filter((account) => account.orgId === orgId)
      .sort((a, b) => a.iban.localeCompare(b.iban));
  }
}
