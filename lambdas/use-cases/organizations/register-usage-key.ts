import type { DirectoryStore, UsageKeys } from '#domain/ports';
import { requireOrganization } from './require-organization';

/** Where an organization's usage key was registered. */
export interface UsageKeyRegistration {
  readonly orgId: string;
  /** The plan the key is in; undefined where the deployment has none (the local runtime meters by itself). */
  readonly usagePlanId: string | undefined;
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
  return { orgId, usagePlanId: await usageKeys.register(orgId) };
}
