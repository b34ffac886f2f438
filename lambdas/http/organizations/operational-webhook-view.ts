/**
 * The JSON view of the organization's operational webhook (`GET|PUT /operational-webhook` and the
 * operator's twins).
 */
import { maskUrlSecrets } from '#domain/urls';
import type { AccountAudience } from '#http/accounts/account-view';
import type { OPERATIONAL_WEBHOOK } from '#http/openapi/operational-webhook';
import type { Static } from '#http/schema';

/** The setting (the `OperationalWebhook` schema). */
export type OperationalWebhookView = Static<typeof OPERATIONAL_WEBHOOK>;

/**
 * The setting as an audience sees it: whole for `manage` keys and operators (they set it), its query's
 * values masked for anyone else, as an account's `webhook_url` is (receivers put tokens there).
 */
export function toOperationalWebhookView(
  setting: { readonly url: string | undefined },
  audience: AccountAudience,
): OperationalWebhookView {
  const { url } = setting;
  return { url: url === undefined ? null : audience.fullUrl ? url : maskUrlSecrets(url) };
}
