/**
 * The events of the in-memory event store, by id, with each account log's sequences indexed beside them:
 * what a `LOG#<org>#<IBAN>` partition holds. A scan of every event per publish would make a simulated
 * burst of 100,000 publishes quadratic; this keeps a log read proportional to the log.
 */
import type { EventRecord } from '#domain/model';

/** An account log's key (organization and IBAN). */
export const logKey = (orgId: string, account: string): string => `${orgId}#${account}`;

/**
 * A `Map` of events by id that keeps the log index in step with every `set`, `delete` and `clear`, so
 * tests may still write events into it directly.
 */
export class EventMap extends Map<string, EventRecord> {
  /** Per log, the ids of its events by sequence. */
  private readonly logs = new Map<string, Map<number, string>>();

  override set(id: string, event: EventRecord): this {
    this.unindex(id);
    super.set(id, event);
    if (event.sequence !== undefined) {
      const key = logKey(event.orgId, event.account);
      let log = this.logs.get(key);
      if (log === undefined) {
        log = new Map();
        this.logs.set(key, log);
      }
      log.set(event.sequence, id);
    }
    return this;
  }

  override delete(id: string): boolean {
    this.unindex(id);
    return super.delete(id);
  }

  override clear(): void {
    this.logs.clear();
    super.clear();
  }

  /** The account's log: its events with a sequence, in no particular order. */
  log(orgId: string, account: string): EventRecord[] {
    const log = this.logs.get(logKey(orgId, account));
    if (log === undefined) return [];
    return [...log.values()].flatMap((id) => this.get(id) ?? []);
  }

  /** The event at a sequence of the account's log. */
  at(orgId: string, account: string, sequence: number): EventRecord | undefined {
    const id = this.logs.get(logKey(orgId, account))?.get(sequence);
    return id === undefined ? undefined : this.get(id);
  }

  /** The highest sequence of the account's log, 0 when it holds none. */
  latest(orgId: string, account: string): number {
    const log = this.logs.get(logKey(orgId, account));
    let latest = 0;
    for (const sequence of log?.keys() ?? []) latest = Math.max(latest, sequence);
    return latest;
  }

  private unindex(id: string): void {
    const old = this.get(id);
    if (old?.sequence === undefined) return;
    const log = this.logs.get(logKey(old.orgId, old.account));
    if (log?.get(old.sequence) === id) log.delete(old.sequence);
  }
}
