/**
 * The operator's JSON views of an organization (snake_case): as created (with its first API key, shown
 * only then), as shown (with its webhook tokens), and its usage-key registration.
 */
import type { Organization } from '#domain/model';
import { webhookTokenId } from '#domain/signing/webhook-token';
import { renderTimestamp } from '#domain/time';
import { toWebhookTokenView, type WebhookTokenView } from './webhook-token-view';

/** The answer of `POST /admin/organizations` (the `CreatedOrganization` schema). */
export interface CreatedOrganizationView {
  readonly id: string;
  readonly name: string;
  readonly webhook_token: string;
  /** The token's non-secret id (`whk_…`). */
  readonly token_id: string;
  readonly api_key: string;
}

/** An organization as the operator sees it (the `Organization` schema). */
export interface OrganizationView extends WebhookTokenView {
  readonly id: string;
  readonly name: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly created_at: string;
}

/** What registering an organization's usage key answers (the `UsageKey` schema). */
export interface UsageKeyView {
  readonly org_id: string;
  /** null where the deployment has no usage plan (the local runtime meters by itself). */
  readonly usage_plan_id: string | null;
}

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
