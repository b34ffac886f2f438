import type { DirectoryStore, UsageKeys } from '#domain/ports';
import { requireOrganization } from './require-organization';

/** What registering an organization's usage key answers. */
export interface UsageKeyRegistration {
  readonly org_id: string;
  /** The plan the key is in; null where the deployment has none (the local runtime meters by itself). */
  readonly usage_plan_id: string | null;
}

/**
 * Registers an existing organization's key in the usage plan (organizations created before the plan
 * existed); idempotent. New organizations are registered when they are created.
 *
 * @throws NotFoundError for an unknown organization
 */
export async function registerUsageKey(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  usageKeys: UsageKeys,
  orgId: string,
): Promise<UsageKeyRegistration> {
  await requireOrganization(directory, orgId);
  return { org_id: orgId, usage_plan_id: (await usageKeys.register(orgId)) ?? null };
}
