/**
 * The delivery context of one batch of messages: what the batch knows about the accounts and
 * organizations of its events. Each is read once per batch, strongly consistently, when the first message
 * needs it, and shared by the batch's other messages; nothing is kept from one batch to the next.
 *
 * So a change committed before a batch reads it (a webhook URL, a token rotation, an account deleted or
 * re-enabled) applies to every attempt of that batch and of every later one, on every consumer, at the
 * price of one read unit per distinct account and organization per batch and no write. An attempt
 * already under way finishes with what its batch read. Rules that look at a batch's events per account
 * (an order gate) belong here too.
 */
import type { EndpointHealth } from '#domain/delivery/endpoint-health';
import type { Account, Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';

/** Where a batch reads accounts and organizations. */
export type DeliveryDirectory = Pick<
  DirectoryStore,
  'getAccount' | 'getOrganization' | 'advanceSettledThrough'
>;

/** One batch's accounts and organizations, read fresh. */
export class DeliveryContext {
  private readonly accounts = new Map<string, Promise<Account | undefined>>();
  private readonly organizations = new Map<string, Promise<Organization | undefined>>();

  constructor(private readonly directory: DeliveryDirectory) {}

  /** The account as committed when the batch first asked for it (undefined: none, or deleted). */
  account(iban: string): Promise<Account | undefined> {
    return once(this.accounts, iban, () => this.directory.getAccount(iban, { consistent: true }));
  }

  /** The organization (with its signing tokens) as committed when the batch first asked for it. */
  organization(id: string): Promise<Organization | undefined> {
    return once(this.organizations, id, () => this.directory.getOrganization(id, { consistent: true }));
  }

  /**
   * Puts the endpoint health a write returned into the batch's account, so the batch's later messages
   * act on a circuit that opened or closed meanwhile.
   */
  remember(iban: string, health: EndpointHealth): void {
    const known = this.accounts.get(iban);
    if (!known) return;
    const updated = known.then((account) => account && { ...account, webhookHealth: health });
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
