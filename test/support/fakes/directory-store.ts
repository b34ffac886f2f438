/**
 * A minimal in-memory directory: organizations and accounts. Accounts show the health a
 * {@link FakeEndpointHealthStore} holds, as the DynamoDB account item carries it.
 */
import type { Account, Organization } from '#domain/model';
import type { FakeEndpointHealthStore } from './endpoint-health-store';

/** The fake: the delivery's reads plus what arrangements need. */
export class FakeDirectory {
  readonly accounts = new Map<string, Account>();
  readonly orgs = new Map<string, Organization>();
  reads = 0;

  constructor(private readonly health?: FakeEndpointHealthStore) {}

  addOrganization(id = 'org-1'): Organization {
    const org = {
      id,
      name: 'Acme',
      webhookToken: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    this.orgs.set(id, org);
    return org;
  }

  addAccount(account: Partial<Account> & { iban: string }): Account {
    const stored = {
      orgId: 'org-1',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
      ...account,
    };
    this.accounts.set(account.iban, stored);
    this.health?.owners.set(account.iban, stored.orgId);
    return stored;
  }

  async getAccount(iban: string): Promise<Account | undefined> {
    this.reads++;
    const account = this.accounts.get(iban);
    if (!account || !this.health) return account;
    return { ...account, webhookHealth: this.health.get(iban) };
  }

  async getOrganization(id: string): Promise<Organization | undefined> {
    this.reads++;
    return this.orgs.get(id);
  }
}
