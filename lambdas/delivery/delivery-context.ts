/**
 * The delivery context of one batch of messages: what the batch knows about the accounts (with their
 * endpoints) and organizations of its events. Each is read once per batch, strongly consistently, when
 * the first message needs it, and shared by the batch's other messages; nothing is kept from one batch to
 * the next.
 *
 * So a change committed before a batch reads it (a webhook URL, an endpoint or its subscription, a token
 * rotation, an account deleted or re-enabled) applies to every attempt of that batch and of every later
 * one, on every consumer, at the price of one read unit per distinct account and organization per batch
 * (and one Query of the account's extra endpoints, for an account that has some) and no write. An
 * attempt already under way finishes with what its batch read. An endpoint health write an attempt makes
 * is remembered on the batch's endpoint, so the batch's later messages act on it. A test event reads
 * through a context of its own, as one delivery does.
 */

import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type { EndpointSecretStore } from '#domain/endpoint-security/ports';
import { addressKey } from '#domain/endpoints/address';
import { addressOf, defaultEndpoint, type Endpoint } from '#domain/endpoints/endpoint';
import { type Account, type Organization, SIGNATURE_SCHEMES } from '#domain/model';
import type { DirectoryStore, EndpointStore } from '#domain/ports';
import { type SecretSealer, signingKeyContext } from '#domain/signing/secret-sealer';
import { type OpenedSigningKey, privateKeyOf, type SigningKey } from '#domain/signing/signing-keys';
import type { EndpointHealth } from './endpoint-health-port';

/** Where a batch reads accounts and organizations. */
export type DeliveryDirectory = Pick<
  DirectoryStore,
  'getAccount' | 'getOrganization' | 'advanceSettledThrough'
>;

/** One batch's accounts and organizations, read fresh. */
export class DeliveryContext {
  private readonly accounts = new Map<string, Promise<Account | undefined>>();
  private readonly organizations = new Map<string, Promise<Organization | undefined>>();
  private readonly opened = new Map<string, Promise<readonly OpenedSigningKey[]>>();
  private readonly secrets = new Map<string, Promise<EndpointSecrets | undefined>>();
  private readonly extras = new Map<string, Promise<Endpoint[]>>();
  private readonly operational = new Map<string, Promise<EndpointHealth | undefined>>();

  /**
   * @param sealer - opens the organizations' Ed25519 keys; without one, webhooks carry no `v1a`
   * @param endpointSecrets - where an endpoint's material is, read only for endpoints whose summary names some
   * @param endpointStore - where an account's extra endpoints are, read only for accounts that count some
   */
  constructor(
    private readonly directory: Pick<DirectoryStore, 'getAccount' | 'getOrganization'>,
    private readonly sealer?: SecretSealer,
    private readonly endpointSecrets?: Pick<EndpointSecretStore, 'getSecrets'>,
    private readonly endpointStore?: Pick<EndpointStore, 'listEndpoints'>,
  ) {}

  /** The endpoint's material, read once per batch and only when its summary says there is some. */
  endpointMaterial(endpoint: Endpoint): Promise<EndpointSecrets | undefined> {
    const store = this.endpointSecrets;
    if (!endpoint.security || !store) return Promise.resolve(undefined);
    return once(this.secrets, addressKey(endpoint), () =>
      store.getSecrets(addressOf(endpoint), { consistent: true }),
    );
  }

  /**
   * The account's endpoints as committed when the batch first asked: its default one first, then its
   * extra ones (read once per batch, and only when the account counts some), oldest first.
   */
  async endpoints(account: Account): Promise<Endpoint[]> {
    const store = this.endpointStore;
    const extras =
      (account.endpointCount ?? 0) === 0 || !store
        ? Promise.resolve([])
        : once(this.extras, account.iban, () =>
            store.listEndpoints(account.iban, account.orgId, { consistent: true }),
          );
    const floor = account.sequenceFloor;
    return [defaultEndpoint(account), ...(await extras).map((extra) => ({ ...extra, sequenceFloor: floor }))];
  }

  /**
   * The health of the organization's operational webhook as committed when the batch first asked for it
   * (`read` reads it), or as this batch's attempts last wrote it.
   */
  operationalHealth(
    orgId: string,
    read: (orgId: string) => Promise<EndpointHealth | undefined>,
  ): Promise<EndpointHealth | undefined> {
    return once(this.operational, orgId, () => read(orgId));
  }

  /** The account as committed when the batch first asked for it (undefined: none, or deleted). */
  account(iban: string): Promise<Account | undefined> {
    return once(this.accounts, iban, () => this.directory.getAccount(iban, { consistent: true }));
  }

  /** The organization (with its signing tokens) as committed when the batch first asked for it. */
  organization(id: string): Promise<Organization | undefined> {
    return once(this.organizations, id, () => this.directory.getOrganization(id, { consistent: true }));
  }

  /**
   * The organization's Ed25519 keys opened once per batch (the current one and the previous one while it
   * still signs; each attempt checks its expiry again), sealed for this organization only: a key moved
   * onto another organization's item does not open. None is opened when the organization's setting
   * leaves `v1a` off, nor a previous key already expired at `nowMs`: no KMS call for a key that signs
   * nothing.
   */
  signingKeys(org: Organization, nowMs: number): Promise<readonly OpenedSigningKey[]> {
    const sealer = this.sealer;
    if (!sealer || !(org.signatureSchemes ?? SIGNATURE_SCHEMES).includes('v1a')) return Promise.resolve([]);
    return once(this.opened, org.id, async () => {
      const stored: (SigningKey & { expiresAt?: string })[] = [];
      if (org.signingKey) stored.push(org.signingKey);
      const previous = org.previousSigningKey;
      if (previous && Date.parse(previous.expiresAt) > nowMs) stored.push(previous);
      return Promise.all(
        stored.map(async (key) => ({
          id: key.id,
          privateKey: privateKeyOf(await sealer.open(key.sealedPrivateKey, signingKeyContext(org.id))),
          expiresAt: key.expiresAt,
        })),
      );
    });
  }

  /**
   * Puts the endpoint health a write returned into the batch's endpoint (on its account for the default
   * one; the operational webhook's apart), so the batch's later messages act on a circuit that opened or closed meanwhile.
   */
  remember(endpoint: Endpoint, health: EndpointHealth): void {
    const { iban, extra } = endpoint;
    if (endpoint.operational) {
      // The organization's operational webhook: its health is its own, never an account's endpoint's.
      this.operational.set(endpoint.orgId, Promise.resolve(health));
      return;
    }
    if (extra !== undefined) {
      const known = this.extras.get(iban);
      if (!known) return;
      const updated = known.then((all) => all.map((e) => (e.extra === extra ? { ...e, health } : e)));
      updated.catch(() => undefined);
      this.extras.set(iban, updated);
      return;
    }
    const known = this.accounts.get(iban);
    if (!known) return;
    const updated = known.then((account) => account && { ...account, health });
    updated.catch(() => undefined);
    this.accounts.set(iban, updated);
  }
}

/** The promise is shared, so concurrent messages make one read; a failed read is not kept. */
function once<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  const known = map.get(key);
  if (known) return known;
  const value = load();
  map.set(key, value);
  value.catch(() => map.delete(key));
  return value;
}
