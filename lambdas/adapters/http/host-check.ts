import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ValidationError } from '#domain/errors';
import { checkResolvedAddress, UnsafeWebhookUrlError, type UrlPolicy } from '#domain/webhook-url';

/**
 * Refuses a webhook host that resolves to an address the policy forbids (checked when an account is
 * saved; the sender checks again at every delivery, since DNS answers change).
 */
export function hostChecker(policy: UrlPolicy): (url: URL) => Promise<void> {
  return async (url) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new ValidationError('webhook_url', `host ${host} could not be resolved`);
    }
    for (const address of addresses) {
      try {
        checkResolvedAddress(host, address, policy);
      } catch (error) {
        if (error instanceof UnsafeWebhookUrlError) throw new ValidationError('webhook_url', error.message);
        throw error;
      }
    }
  };
}
