/**
 * An enabling announced: `endpoint_enabled` is stored by the enablings (the account route's, an endpoint
 * change's, the operator's), from what the enable write answered, not by the consumer: an enabling is a
 * person's act, and nothing about it reaches the consumer's health path.
 */
import type { Enabling } from '#delivery/endpoint-health-port';
import type { EndpointAddress } from '#domain/endpoints/address';
import { type Notice, noticeId } from '#domain/notices/notice';
import type { OperationalLog } from '#domain/notices/ports';

/**
 * Stores `endpoint_enabled` for an enabling (`enabling`: the enable write's answer) that found the
 * endpoint disabled, its epoch the enabling's time; nothing for one that found it enabled (of two at
 * once, only the first write finds it disabled). The notice says why it had been disabled.
 *
 * @param at - ISO: the enabling's time, as the enable wrote it
 * @returns the notice stored, if any
 */
export async function announceEnabling(
  notices: OperationalLog | undefined,
  endpoint: EndpointAddress,
  enabling: Enabling,
  at: string,
): Promise<Notice | undefined> {
  if (notices === undefined || enabling.previous.state !== 'disabled') return undefined;
  const key = {
    kind: 'endpoint_enabled' as const,
    orgId: endpoint.orgId,
    endpointId: enabling.endpointId,
    epoch: at,
  };
  const notice: Notice = {
    ...key,
    id: noticeId(key),
    account: endpoint.iban,
    at,
    consecutiveFailures: 0,
    reason: enabling.previous.reason,
  };
  return (await notices.record(notice)) ? notice : undefined;
}
