/**
 * The organization's operational webhook: the URL its operational notices are POSTed to, shown and set
 * (checked as every webhook URL is), on the organization item.
 */
import type { DirectoryStore } from '#domain/ports';
import { checkEndpointUrl, type UrlChecks } from '#use-cases/accounts/endpoint-input';
import { requireOrganization, unknownOrganization } from './require-organization';

/** The setting: where the notices go, undefined when nowhere (they are only listed then). */
export interface OperationalWebhook {
  readonly url: string | undefined;
}

/** What a write changes: a URL replaces the stored one, null removes it, undefined keeps it. */
export interface OperationalWebhookChange {
  readonly url?: string | null | undefined;
}

/** What setting the URL needs: the directory and the URL policy's checks (its host check included). */
export interface OperationalWebhookDeps {
  readonly directory: Pick<DirectoryStore, 'getOrganization' | 'setOpsWebhookUrl'>;
  readonly checks: UrlChecks;
}

/**
 * The organization's operational webhook.
 *
 * @throws NotFoundError for an unknown organization
 */
export async function showOperationalWebhook(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  orgId: string,
): Promise<OperationalWebhook> {
  return { url: (await requireOrganization(directory, orgId)).opsWebhookUrl };
}

/**
 * Sets or removes the organization's operational webhook URL; a change without `url` writes nothing. The
 * URL is checked as an endpoint's is (policy, then host) and stored as parsed, like every webhook URL.
 *
 * @returns the setting now
 * @throws ValidationError naming `url` (nothing is written then)
 * @throws NotFoundError for an unknown organization
 */
export async function setOperationalWebhook(
  deps: OperationalWebhookDeps,
  orgId: string,
  change: OperationalWebhookChange,
): Promise<OperationalWebhook> {
  const org = await requireOrganization(deps.directory, orgId);
  if (change.url === undefined) return { url: org.opsWebhookUrl };
  const url = change.url === null ? null : (await checkEndpointUrl(change.url, deps.checks)).toString();
  if (!(await deps.directory.setOpsWebhookUrl(orgId, url))) throw unknownOrganization(orgId);
  return { url: url ?? undefined };
}
