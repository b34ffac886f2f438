/**
 * The numbering of the in-memory account logs, with the DynamoDB adapter's conditions (`log-head.ts`):
 * each log's head (tickets handed out in order, never refused; created or lifted only with `above`;
 * removed only while unchanged) and its voids (a missing sequence closed once, never over an event).
 */
import type { LogHead, LogTail, LogVoid, Ticket } from '#domain/ports';
import { type EventMap, logKey } from './event-map';

/** Heads and voids of the in-memory logs; `heads` and `voids` are public for tests to arrange and inspect. */
export class LogNumbering {
  /** Each hot log's head, by log key (`<org>#<IBAN>`). */
  readonly heads = new Map<string, LogHead>();
  /** Each log's voids: closed sequence → epoch ms of the closing, and its ticket's time if given back. */
  readonly voids = new Map<string, Map<number, { readonly at: number; readonly ticketedAt?: number }>>();

  constructor(
    private readonly events: EventMap,
    private readonly writes: string[],
  ) {}

  /** The log's head, or its highest sequence (event or void). */
  tail(orgId: string, account: string): LogTail {
    const head = this.heads.get(logKey(orgId, account));
    return head === undefined ? { highest: this.latest(orgId, account) } : { head };
  }

  /** The highest sequence the log holds, events and voids alike (0 when none). */
  latest(orgId: string, account: string): number {
    return Math.max(this.events.latest(orgId, account), ...this.voidsOf(orgId, account));
  }

  takeTicket(orgId: string, account: string, count: number, at: number): Ticket | undefined {
    this.writes.push('TakeTicket');
    const head = this.heads.get(logKey(orgId, account));
    return head === undefined ? undefined : this.handOut(orgId, account, head.handedOut, count, at);
  }

  takeTicketAbove(orgId: string, account: string, count: number, at: number, above: number): Ticket {
    const head = this.heads.get(logKey(orgId, account));
    if (head !== undefined && head.handedOut < above) this.writes.push('TakeTicket', 'LiftHead');
    this.writes.push('TakeTicket');
    return this.handOut(orgId, account, Math.max(head?.handedOut ?? 0, above), count, at);
  }

  private handOut(orgId: string, account: string, from: number, count: number, at: number): Ticket {
    const last = from + count;
    this.heads.set(logKey(orgId, account), { handedOut: last, at });
    return { first: last - count + 1, last, at };
  }

  leaveHot(orgId: string, account: string, seen: LogHead): boolean {
    this.writes.push('LeaveHot');
    const key = logKey(orgId, account);
    const head = this.heads.get(key);
    if (head?.handedOut !== seen.handedOut || head.at !== seen.at) return false;
    this.heads.delete(key);
    return true;
  }

  voidSequence(orgId: string, account: string, sequence: number, at: number, ticketedAt?: number): boolean {
    this.writes.push('VoidSequence');
    if (this.isVoid(orgId, account, sequence)) return true;
    if (this.events.at(orgId, account, sequence)) return false;
    const key = logKey(orgId, account);
    const voids = this.voids.get(key) ?? new Map();
    voids.set(sequence, ticketedAt === undefined ? { at } : { at, ticketedAt });
    this.voids.set(key, voids);
    return true;
  }

  isVoid(orgId: string, account: string, sequence: number): boolean {
    return this.voids.get(logKey(orgId, account))?.has(sequence) ?? false;
  }

  /** The log's closed sequences, ascending. */
  voidsOf(orgId: string, account: string): number[] {
    return this.voidItems(orgId, account).map((closed) => closed.sequence);
  }

  /** The log's voids as a read answers them, ascending. */
  voidItems(orgId: string, account: string): LogVoid[] {
    return [...(this.voids.get(logKey(orgId, account)) ?? [])]
      .map(([sequence, { ticketedAt }]) => ({ sequence, ticketedAt }))
      .sort((a, b) => a.sequence - b.sequence);
  }

  /** Erasure: the log's head and voids go with its events. */
  forget(orgId: string, account: string): void {
    this.heads.delete(logKey(orgId, account));
    this.voids.delete(logKey(orgId, account));
  }
}
