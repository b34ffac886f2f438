/**
 * Seeding a table with tenants: an organization with its webhook token and first API key, and its
 * accounts with their webhook URLs, through the same use-cases the admin API runs (so seeded data is what
 * the API would have stored). The demo of `npm start`, the benchmarks and the tests all seed this way.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { newEndpointId } from '#domain/ids';
import type { DeliveryOrder } from '#domain/model';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import { putAccount } from '#use-cases/accounts/accounts';
import { createOrganization } from '#use-cases/organizations/organizations';

/** A seeded organization and the secrets a caller needs: its first API key (scope `manage`) and webhook token. */
export interface SeededTenant {
  readonly orgId: string;
  readonly apiKey: string;
  readonly webhookToken: string;
}

/** An account to seed; without a webhook URL its events are recorded as `skipped`. */
export interface SeedAccount {
  readonly iban: string;
  readonly webhookUrl?: string | undefined;
  /** Absent: `concurrent`. */
  readonly deliveryOrder?: DeliveryOrder | undefined;
}

/** Seeds organizations and accounts into one table. */
export class TenantSeeder {
  private readonly directory: DynamoDirectoryStore;
  private readonly apiKeys: DynamoApiKeyStore;
  private readonly endpoints: DynamoEndpointStore;

  /**
   * @param policy - the URL policy webhook URLs are checked against; `local` (loopback receivers) unless
   *   a test exercises another
   * @param sealer - seals each new organization's Ed25519 signing key (the runtime's key file); without
   *   one, organizations sign with their token only, as those created before signing keys did
   */
  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    private readonly policy: UrlPolicy = 'local',
    private readonly sealer?: SecretSealer,
  ) {
    this.directory = new DynamoDirectoryStore(client, tableName);
    this.apiKeys = new DynamoApiKeyStore(client, tableName);
    this.endpoints = new DynamoEndpointStore(client, tableName);
  }

  /** A new organization named `name`, with its first API key, and its `accounts`. */
  async tenant(name: string, accounts: readonly SeedAccount[] = []): Promise<SeededTenant> {
    const { organization, firstKey } = await createOrganization(
      this.directory,
      this.apiKeys,
      name,
      undefined,
      this.sealer,
    );
    const tenant = {
      orgId: organization.id,
      apiKey: firstKey.secret,
      webhookToken: organization.webhookToken,
    };
    for (const account of accounts) await this.account(tenant.orgId, account);
    return tenant;
  }

  /**
   * Creates the organization's account, or sets its webhook URL: a seed states the whole account, so
   * one without a URL has none afterwards (its events are `skipped`).
   */
  async account(orgId: string, account: SeedAccount): Promise<void> {
    await putAccount(
      this.directory,
      { orgId, ...account, webhookUrl: account.webhookUrl ?? null },
      this.policy,
    );
  }

  /**
   * Adds an extra endpoint to the organization's account, subscribed to every event type, without
   * security material (as `POST /accounts/{iban}/endpoints` with a URL only would store it); its `ep_…` id.
   */
  async endpoint(orgId: string, iban: string, url: string): Promise<string> {
    const id = newEndpointId();
    await this.endpoints.addEndpoint({
      iban,
      orgId,
      id,
      url: checkWebhookUrl(url, this.policy).toString(),
      createdAt: new Date().toISOString(),
    });
    return id;
  }
}
