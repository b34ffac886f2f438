/**
 * The consumer's side of ordered delivery (`delivery_order: ordered`): the sequence gate before an
 * attempt, and what follows an event's settling (the watermark moves on, the next waiting event is sent
 * again at once). The decisions are `order-rule.ts`'s; this reads the log, writes the watermark and
 * sends messages. Concurrent accounts never come here: nothing is added to their healthy path.
 */

import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import type { Endpoint } from '#domain/endpoints/endpoint';
import { type LogItemView, walkLog } from '#domain/log-holes';
import type { EventRecord } from '#domain/model';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, LogEntry, LogWindow } from '#domain/ports';
import {
  decideGate,
  type GateWindow,
  isSettled,
  mustWait,
  ORDER_GATE_FIRST_WINDOW,
  ORDER_GATE_WINDOW,
  ORDER_GATE_WINDOWS,
  waitSeconds,
} from './order-rule';
import { entriesAt } from './order-view';

/** What the order needs. */
export interface OrderDeps {
  readonly events: DeliveryLedger;
  readonly directory: Pick<DirectoryStore, 'advanceSettledThrough'>;
  readonly queue: Pick<DeliveryQueue, 'enqueue'>;
  /** A fanned-out event's delivery at the ordered endpoint: what its order reads for that event. */
  readonly deliveries: Pick<EndpointDeliveries, 'readDelivery'>;
  /** Epoch ms. */
  readonly now: () => number;
}

/**
 * The gate's answer: attempt now (`leased`: the attempt must take the event's lease; `settledThrough`:
 * the watermark as stored now), or wait.
 */
export type GateOutcome =
  | { readonly go: true; readonly leased: boolean; readonly settledThrough: number }
  | { readonly go: false; readonly seconds: number; readonly reason: string };

/** Whether the endpoint's deliveries of the event go through the gate. */
export function isOrdered(endpoint: Endpoint, event: EventRecord): boolean {
  return endpoint.deliveryOrder === 'ordered' && event.sequence !== undefined;
}

/**
 * Lets event `event` of an ordered endpoint through when every earlier event is settled for that endpoint
 * (`order-view.ts`); otherwise it
 * waits (its message hides, nothing is attempted or recorded), and an earlier event that looks stalled is
 * sent again. An event right after the watermark goes without any read. Each evaluation moves the watermark
 * over what it found settled, at most {@link ORDER_GATE_WINDOWS} windows of the log.
 */
export async function passGate(
  deps: OrderDeps,
  endpoint: Endpoint,
  event: EventRecord,
  receiveCount: number,
  routed = false,
): Promise<GateOutcome> {
  const sequence = event.sequence ?? 0;
  const stored = endpoint.settledThrough ?? 0;
  const start = orderStart(endpoint);
  if (!mustWait(event.sequence, start)) return { go: true, leased: false, settledThrough: stored };
  // Marked first, read second; the earlier event settles first and reads second (`afterSettled`): one
  // of the two sees the other, so a waiting event is never left to its safety-net wait alone. Marked, it
  // is leased for its first attempt, so the message sent again and its own make one attempt. Marked
  // already (a look before, or a scheduled retry): no write, only the lease is checked as read. A routed
  // delivery has no mark: its every attempt takes its lease, and the earlier one sends it again unmarked.
  const underWay = {
    go: false,
    seconds: waitSeconds(receiveCount),
    reason: 'an attempt of it is under way',
  } as const;
  if (event.leaseUntil !== undefined && event.leaseUntil >= deps.now()) return underWay;
  if (!routed && event.nextAttemptAt === undefined && !(await deps.events.markWaiting(event, deps.now())))
    return underWay;
  let through = start;
  for (let window = 0; window < ORDER_GATE_WINDOWS; window++) {
    const size = window === 0 ? ORDER_GATE_FIRST_WINDOW : ORDER_GATE_WINDOW;
    const limit = Math.min(sequence - 1 - through, size);
    const read = await deps.events.readLogEntries(event.orgId, event.account, through, limit);
    const holes = await closeHoles(deps, endpoint, through, read, event, limit);
    const entries = await entriesAt(deps.deliveries, endpoint, read.entries);
    if (holes === undefined) {
      return {
        go: false,
        seconds: 1,
        reason: 'ordered: an event was stored in a missing sequence; looks again',
      };
    }
    const decision = decideGate(sequence, through, entries, deps.now(), holes);
    through = decision.settledThrough;
    if (decision.kind === 'read-on') continue;
    const moved = await moveWatermark(deps, endpoint, stored, through);
    // Not moved: another consumer moved it, or a replay restarted the order since this batch read the
    // account (its restarted events may be among those this read found settled): look again.
    if (decision.kind === 'go' && through > stored && !moved) {
      return { go: false, seconds: 1, reason: 'ordered: the watermark changed meanwhile; looks again' };
    }
    if (decision.kind === 'go') return { go: true, leased: true, settledThrough: moved ? through : stored };
    // Sent again only from a message that already waited once: not on every look.
    if (decision.stalled && receiveCount > 1) await deps.queue.enqueue([decision.stalled]);
    return {
      go: false,
      seconds: waitSeconds(receiveCount),
      reason:
        holes.heldAt === through + 1
          ? `ordered: waits for sequence ${through + 1} to be stored (its publish may be under way)`
          : `ordered: waits for sequence ${through + 1} to settle`,
    };
  }
  await moveWatermark(deps, endpoint, stored, through);
  return { go: false, seconds: 1, reason: `ordered: the watermark is catching up (at ${through})` };
}

/**
 * After an ordered account's event settled (or a message found it so): the next unsettled event of the
 * log after it (past events settled meanwhile, and missing sequences) is sent again now if it waits
 * (marked by the gate), rather than after its safety-net wait; and when the settled event was the next
 * one, the watermark moves up to that event.
 */
export async function afterSettled(
  deps: OrderDeps,
  endpoint: Endpoint,
  event: EventRecord,
  stored = endpoint.settledThrough ?? 0,
): Promise<void> {
  if (!isOrdered(endpoint, event) || !isSettled(event.webhookStatus)) return;
  const sequence = event.sequence ?? 0;
  let through = sequence;
  let next: LogEntry | undefined;
  for (let window = 0; window < ORDER_GATE_WINDOWS && next === undefined; window++) {
    const size = window === 0 ? ORDER_GATE_FIRST_WINDOW : ORDER_GATE_WINDOW;
    const read = await deps.events.readLogEntries(event.orgId, event.account, through, size);
    // Nothing is passed past a missing sequence that is not final: the gate's next look closes or waits.
    const walk = walkLog(through, logItems(read), endpoint.sequenceFloor ?? 0, deps.now(), 0);
    const entries = await entriesAt(deps.deliveries, endpoint, read.entries);
    next = entries.find((entry) => (entry.sequence ?? 0) <= walk.through && !isSettled(entry.webhookStatus));
    const last = Math.max(0, ...logItems(read).map((item) => item.sequence));
    if (last === 0) break;
    through = next?.sequence === undefined ? walk.through : next.sequence - 1;
    if (walk.through < last) break;
  }
  if (sequence === Math.max(stored, endpoint.sequenceFloor ?? 0) + 1) {
    await moveWatermark(deps, endpoint, stored, through);
  }
  // A delivery waiting for its turn is not marked (see `passGate`): it is sent again all the same.
  if (next !== undefined && (next.nextAttemptAt !== undefined || next.endpointId !== undefined)) {
    await deps.queue.enqueue([next]);
  }
}

/** The events and voids of a read, as the hole rule sees them. */
function logItems(read: LogWindow): LogItemView[] {
  return [
    ...read.entries.map((entry) => ({ sequence: entry.sequence ?? 0, ticketedAt: entry.ticketedAt })),
    ...read.voids.map((closed) => ({ ...closed, voided: true as const })),
  ];
}

/**
 * The hole rule over one read below the gated event (`domain/log-holes.ts`): old missing sequences closed
 * with voids, and how far the read is decided; undefined when an event was found stored in a sequence
 * being closed (the read is stale: look again). A whole read that held fewer items than its `limit`
 * reached the gated event, which is then the item above its last gap; a cut read (its page ended first)
 * says nothing past its last item, so the gate reads on from there.
 */
async function closeHoles(
  deps: OrderDeps,
  endpoint: Endpoint,
  after: number,
  read: LogWindow,
  event: EventRecord,
  limit: number,
): Promise<GateWindow | undefined> {
  const sequence = event.sequence ?? 0;
  const inRead = logItems(read);
  const reached = inRead.some((item) => item.sequence >= sequence) || (!read.cut && inRead.length < limit);
  const items = [...inRead, ...(reached ? [{ sequence, ticketedAt: event.ticketedAt }] : [])].filter(
    (item) => item.sequence <= sequence,
  );
  const walk = walkLog(after, items, endpoint.sequenceFloor ?? 0, deps.now(), ORDER_GATE_WINDOW);
  for (const missing of walk.close) {
    if (!(await deps.events.voidSequence(event.orgId, event.account, missing, deps.now()))) return undefined;
  }
  return { readThrough: walk.through, heldAt: walk.waitFor };
}

/**
 * Where the endpoint's order starts: its watermark, or the log's `seq_floor` when above (no event of the
 * log was ever stored at or below the floor since retention emptied it).
 */
function orderStart(endpoint: Endpoint): number {
  return Math.max(endpoint.settledThrough ?? 0, endpoint.sequenceFloor ?? 0);
}

/**
 * Moves the stored watermark on from what this consumer last saw; true when it did. Another consumer
 * moving it first is fine: the next look reads the log again.
 */
async function moveWatermark(
  deps: OrderDeps,
  endpoint: Endpoint,
  from: number,
  to: number,
): Promise<boolean> {
  const { iban, orgId, extra } = endpoint;
  const epoch = endpoint.orderEpoch ?? 0;
  return to > from && (await deps.directory.advanceSettledThrough(iban, orgId, { from, to, epoch }, extra));
}
