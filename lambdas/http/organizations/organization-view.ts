/**
 * The operator's JSON views of an organization (snake_case): as created (with its first API key, shown
 * only then), as shown (with its webhook tokens), and its usage-key registration.
 */
import type { Organization } from '#domain/model';
import { webhookTokenId } from '#domain/signing/webhook-token';
import { renderTimestamp } from '#domain/time';
import type { CREATED_ORGANIZATION, ORGANIZATION, USAGE_KEY } from '#http/openapi/admin-components';
import type { Static } from '#http/schema';
import { toWebhookTokenView } from './webhook-token-view';

/** The answer of `POST /admin/organizations` (the `CreatedOrganization` schema). */
export type CreatedOrganizationView = Static<typeof CREATED_ORGANIZATION>;

/** An organization as the operator sees it (the `Organization` schema). */
export type OrganizationView = Static<typeof ORGANIZATION>;

/** What registering an organization's usage key answers (the `UsageKey` schema). */
export type UsageKeyView = Static<typeof USAGE_KEY>;

/** A new organization with the secret of its first API key. */
export function toCreatedOrganizationView(created: {
  readonly organization: Organization;
  readonly firstKey: { readonly secret: string };
}): CreatedOrganizationView {
  const { organization } = created;
  return {
    id: organization.id,
    name: organization.name,
    webhook_token: organization.webhookToken,
    token_id: webhookTokenId(organization.webhookToken),
    api_key: created.firstKey.secret,
  };
}

/** An organization with the tokens it carries (the use-case leaves out a previous token that ended). */
export function toOrganizationView(org: Organization): OrganizationView {
  return {
    id: org.id,
    name: org.name,
    created_at: renderTimestamp(org.createdAt),
    ...toWebhookTokenView(org),
  };
}

/** Where an organization's usage key was registered. */
export function toUsageKeyView(registration: {
  readonly orgId: string;
  readonly usagePlanId: string | undefined;
}): UsageKeyView {
  return { org_id: registration.orgId, usage_plan_id: registration.usagePlanId ?? null };
}
