/**
 * Ordered delivery per account (`delivery_order: ordered`): the sequence gate's decisions, pure. An event
 * of an ordered account is not attempted before every earlier event of the account (by sequence) is
 * settled: `success`, `failed` or `skipped`. The account's watermark `settled_through` (W) says that every
 * event up to W is settled; the gate reads the log above W to move it on. See docs/design.md, ordered
 * delivery, and why not SQS FIFO.
 */
import type { QueuedDelivery } from '#domain/delivery-message';
import type { WebhookStatus } from '#domain/model';
import type { LogEntry } from '#domain/ports';

/**
 * Events of the log one gate evaluation reads per window after the first; an evaluation reads at most
 * {@link ORDER_GATE_WINDOWS} windows, so a watermark far behind catches up by about this much per
 * window, at a bounded cost each.
 */
export const ORDER_GATE_WINDOW = 100;

/**
 * Events the first window reads: an event usually waits for the one just before the watermark's next,
 * which one item (0.5 read unit) shows; only a watermark behind widens the read.
 */
export const ORDER_GATE_FIRST_WINDOW = 1;

/** Windows one gate evaluation reads at most. */
export const ORDER_GATE_WINDOWS = 3;

/** Whether a status ends an event's delivery for the order: nothing later waits for it any more. */
export function isSettled(status: WebhookStatus): boolean {
  return status !== 'pending';
}

/** Whether event `sequence` must look at the log before it may go, with watermark `settledThrough`. */
export function mustWait(sequence: number | undefined, settledThrough: number): boolean {
  return sequence !== undefined && sequence > settledThrough + 1;
}

/** The gate's decision for one event after reading a window of the log. */
export type GateDecision =
  /** Every earlier event is settled: attempt it. */
  | { readonly kind: 'go'; readonly settledThrough: number }
  /**
   * An earlier event is not settled: wait. `stalled` is that first unsettled event when nothing is under
   * way for it (no live lease) and its attempt is due: its message may be gone, so it is sent again (to
   * the entry's endpoint when the entry is one endpoint's delivery).
   */
  | { readonly kind: 'wait'; readonly settledThrough: number; readonly stalled?: QueuedDelivery | undefined }
  /** The window was all settled but did not reach the event: read the next window. */
  | { readonly kind: 'read-on'; readonly settledThrough: number };

/** What the caller decided of a read's missing sequences (`domain/log-holes.ts`). */
export interface GateWindow {
  /** Every sequence up to here is an entry of the read, a void, or a missing sequence that is final. */
  readonly readThrough: number;
  /** The first sequence a publish may still store: nothing at or above it passes. */
  readonly heldAt?: number | undefined;
}

/**
 * Decides for event `sequence` from the watermark and the log's events above it (ascending, as read by
 * one consistent Query `sk > settledThrough`): the watermark moves over the settled prefix; the event goes
 * when that reaches `sequence - 1`.
 *
 * A sequence missing from the read is passed as settled: the caller decided every missing sequence of the
 * read by the hole rule first (`window`; without it, the read's last entry ends what was decided), so
 * each one left up to `readThrough` is final or closed by a void. At `heldAt` a publish may still store
 * an event: the event waits for it.
 */
export function decideGate(
  sequence: number,
  settledThrough: number,
  read: readonly LogEntry[],
  nowEpochMs: number,
  window?: GateWindow,
): GateDecision {
  const held = window?.heldAt ?? sequence;
  // Past what the caller decided, a missing sequence is not known to be final: the next read decides.
  const end = Math.min(sequence, held, window === undefined ? sequence : window.readThrough + 1);
  let through = settledThrough;
  let head: LogEntry | undefined;
  for (const entry of read) {
    const at = entry.sequence ?? 0;
    if (at <= through) continue;
    if (at >= end) break;
    if (!isSettled(entry.webhookStatus)) {
      head = entry;
      through = at - 1;
      break;
    }
    through = at;
  }
  if (head === undefined) {
    // Everything below the held sequence is settled or passed: wait for it, with nothing to send again.
    if (held < sequence) return { kind: 'wait', settledThrough: held - 1 };
    const readThrough = window?.readThrough ?? read.at(-1)?.sequence;
    // The read reached the event (or nothing lies between): every earlier one is settled.
    if (readThrough === undefined || readThrough >= sequence - 1) {
      return { kind: 'go', settledThrough: sequence - 1 };
    }
    return { kind: 'read-on', settledThrough: Math.max(through, readThrough) };
  }
  const idle = head.leaseUntil === undefined || head.leaseUntil < nowEpochMs;
  const due = head.nextAttemptAt === undefined || head.nextAttemptAt <= nowEpochMs;
  const { id, orgId, account, sequence: at, endpointId } = head;
  return {
    kind: 'wait',
    settledThrough: through,
    stalled: idle && due ? { id, orgId, account, sequence: at, endpointId } : undefined,
  };
}

/**
 * How long a waiting event's message hides before it looks again: a safety net only (the event before it
 * sends it again when it settles), growing with each look, at most 15 minutes.
 */
export function waitSeconds(receiveCount: number): number {
  return Math.min(2 ** Math.min(Math.max(receiveCount, 1), 10), 900);
}
