import { NotFoundError } from '#domain/errors';
import type { Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';

/** The organization, or NotFoundError naming it. */
export async function requireOrganization(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  orgId: string,
): Promise<Organization> {
  const org = await directory.getOrganization(orgId);
  if (!org) throw unknownOrganization(orgId);
  return org;
}

/** The error for an organization that does not exist (or no longer does when it is written). */
export function unknownOrganization(orgId: string): NotFoundError {
  return new NotFoundError(`org: no organization ${orgId}.`);
}
