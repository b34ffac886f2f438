import { randomUUID } from 'node:crypto';
import type { Organization } from '#domain/model';
import type { ApiKeyStore, DirectoryStore } from '#domain/ports';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { generateWebhookToken, tokensAt } from '#domain/signing/webhook-token';
import { type Clock, nowIso, systemClock } from '#domain/time';
import { createApiKey, type IssuedApiKey } from './api-keys';
import { requireOrganization } from './require-organization';
import { newSigningKey } from './signing-keys';

/** A new organization and its first API key, whose secret is shown only this once. */
export interface CreatedOrganization {
  readonly organization: Organization;
  readonly firstKey: IssuedApiKey;
}

/**
 * Creates an organization, its webhook token, its Ed25519 signing key (when a sealer can store one) and a
 * first API key (scope `manage`, name `default`).
 *
 * @param name - the organization's name, already checked (`parseNewOrganization`)
 * @param sealer - seals the signing key; without one the organization signs with its token only until
 *   its keys are rotated
 */
export async function createOrganization(
  directory: DirectoryStore,
  apiKeys: ApiKeyStore,
  name: string,
  clock: Clock = systemClock,
  sealer?: SecretSealer,
): Promise<CreatedOrganization> {
  const id = randomUUID();
  const organization: Organization = {
    id,
    name,
    webhookToken: generateWebhookToken(),
    ...(sealer ? { signingKey: await newSigningKey(sealer, id, clock().getTime()) } : {}),
    createdAt: nowIso(clock()),
  };
  await directory.createOrganization(organization);
  const firstKey = await createApiKey(
    directory,
    apiKeys,
    organization.id,
    { name: 'default', scope: 'manage' },
    clock().getTime(),
  );
  return { organization, firstKey };
}

/** One organization as it signs now (a previous token whose overlap ended is left out); 404 when unknown. */
export async function getOrganization(
  directory: DirectoryStore,
  orgId: string,
  clock: Clock = systemClock,
): Promise<Organization> {
  return tokensAt(await requireOrganization(directory, orgId), clock().getTime());
}
