import { DELIVERY_STATS_EVENTS } from '#config/limits';
import { STATS_WINDOWS, type StatsWindow, type WindowStats, windowStats } from '#domain/delivery-stats';
import type { DirectoryStore, EventQueries } from '#domain/ports';
import { getAccount } from './accounts';

/** An account endpoint's delivery summary over one or more windows. */
export interface DeliveryStats {
  /** Normalised IBAN. */
  readonly iban: string;
  /** How many events the attempts were read from: the account's latest in the longest window. */
  readonly events: number;
  /** False when the longest window held more of the account's events than one summary reads. */
  readonly complete: boolean;
  readonly windows: readonly WindowStats[];
}

/**
 * The delivery summary the portal's charts draw, computed here from one bounded read: the attempts of
 * the account's latest {@link DELIVERY_STATS_EVENTS} events triggered within the longest window asked for
 * (one index Query, one batch read of their attempts), whatever the organization holds.
 *
 * @param windows - the windows to summarise (at least one), each from the same read
 * @throws ValidationError for a malformed IBAN; NotFoundError for an account of another organization or none
 */
export async function deliveryStats(
  ports: { directory: Pick<DirectoryStore, 'getAccount'>; events: EventQueries },
  orgId: string,
  ibanInput: string,
  windows: readonly StatsWindow[],
  now: number,
): Promise<DeliveryStats> {
  const { iban } = await getAccount(ports.directory, orgId, ibanInput);
  const longest = Math.max(...windows.map((window) => STATS_WINDOWS[window].ms));
  const since = new Date(now - longest).toISOString();
  const read = await ports.events.recentAttempts(orgId, iban, since, DELIVERY_STATS_EVENTS);
  return {
    iban,
    events: read.events,
    complete: read.complete,
    windows: windows.map((window) => windowStats(read.attempts, window, now)),
  };
}
