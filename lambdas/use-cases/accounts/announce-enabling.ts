/**
 * A person's enabling or disabling announced by its own path, from what its health write answered:
 * `endpoint_enabled` by the enablings (the account route's, an endpoint change's, the operator's),
 * `endpoint_disabled` by an endpoint change's disabling. An enabling never reaches the consumer's health
 * path, and a disabling would reach it only when a later message happens to come.
 */
import type { Enabling, EndpointHealth, EndpointHealthStore } from '#delivery/endpoint-health-port';
import { formatMark, parseMark } from '#delivery/operational-notice-rule';
import type { EndpointAddress } from '#domain/endpoints/address';
import { makeNotice, type Notice } from '#domain/notices/notice';
import type { OperationalLog } from '#domain/notices/ports';

/**
 * Stores `endpoint_enabled` for an enabling (`enabling`: the enable write's answer) that found the
 * endpoint disabled, or failing in a run already announced (the enabling resets the run and removes its
 * mark, so no `endpoint_recovered` could close it), its epoch the enabling's time; nothing for one that
 * found it healthy or in an unannounced run (of two at once, only the first write finds it so). The
 * notice says why it had been disabled or was failing.
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
  if (notices === undefined) return undefined;
  const announcedRun = parseMark(enabling.previous.noticed) !== undefined;
  if (enabling.previous.state !== 'disabled' && !announcedRun) return undefined;
  const notice = actNotice(
    'endpoint_enabled',
    { ...endpoint, endpointId: enabling.endpointId },
    at,
    // The enabling resets the failures; the notice says why the endpoint had been disabled or failing.
    { consecutiveFailures: 0, reason: enabling.previous.reason },
  );
  return (await notices.record(notice)) ? notice : undefined;
}

/** The mark a person's disabling at `at` writes with itself: its notice is this path's to store. */
export function disablingMark(at: string): string {
  return formatMark({ level: 'disabled', epoch: at });
}

/**
 * Stores `endpoint_disabled` for a person's disabling at `at` whose write (`health`: what it answered)
 * found the endpoint not disabled: its mark is then {@link disablingMark}, written by that write so the
 * consumer's disabled gate does not announce it again; nothing for one that found it disabled already. A
 * notice that cannot be stored gives the mark back (the consumer's gate then announces it) and throws.
 *
 * @returns the notice stored, if any
 */
export async function announceDisabling(
  notices: OperationalLog | undefined,
  health: Pick<EndpointHealthStore, 'markNoticed'>,
  endpoint: EndpointAddress & { readonly endpointId: string },
  written: EndpointHealth,
  at: string,
): Promise<Notice | undefined> {
  const mark = disablingMark(at);
  if (notices === undefined || written.noticed !== mark) return undefined;
  const notice = actNotice('endpoint_disabled', endpoint, at, written);
  try {
    return (await notices.record(notice)) ? notice : undefined;
  } catch (error) {
    await health.markNoticed(endpoint, mark, undefined);
    throw error;
  }
}

/**
 * The notice of a person's act on `endpoint` at `at`: the act's time is both its epoch and when it was
 * decided, so every path that names the act names this one notice; `health` gives its failures and reason.
 */
function actNotice(
  kind: 'endpoint_enabled' | 'endpoint_disabled',
  endpoint: EndpointAddress & { readonly endpointId: string },
  at: string,
  { consecutiveFailures, reason }: Pick<EndpointHealth, 'consecutiveFailures' | 'reason'>,
): Notice {
  return makeNotice(
    { kind, orgId: endpoint.orgId, endpointId: endpoint.endpointId, epoch: at },
    { account: endpoint.iban, at, consecutiveFailures, reason },
  );
}
