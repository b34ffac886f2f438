/**
 * The consumer's side of ordered delivery (`delivery_order: ordered`): the sequence gate before an
 * attempt, and what follows an event's settling (the watermark moves on, the next waiting event is sent
 * again at once). The decisions are the domain's (`domain/delivery/order-gate.ts`); this reads the log,
 * writes the watermark and sends messages. Concurrent accounts never come here: nothing is added to their
 * healthy path.
 */
import {
  decideGate,
  isSettled,
  mustWait,
  ORDER_GATE_WINDOW,
  ORDER_GATE_WINDOWS,
  waitSeconds,
} from '#domain/delivery/order-gate';
import type { Account, EventRecord } from '#domain/model';
import type { DeliveryQueue, DirectoryStore, EventStore } from '#domain/ports';

/** What the order needs. */
export interface OrderDeps {
  readonly events: Pick<EventStore, 'readLog' | 'markWaiting'>;
  readonly directory: Pick<DirectoryStore, 'advanceSettledThrough'>;
  readonly queue: Pick<DeliveryQueue, 'enqueue'>;
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

/** Whether the account's events go through the gate. */
export function isOrdered(account: Account, event: EventRecord): boolean {
  return account.deliveryOrder === 'ordered' && event.sequence !== undefined;
}

/**
 * Lets event `event` of an ordered account through when every earlier event is settled; otherwise it
 * waits (its message hides, nothing is attempted or recorded), and an earlier event that looks stalled is
 * sent again. An event right after the watermark goes without any read. Each evaluation moves the watermark
 * over what it found settled, at most {@link ORDER_GATE_WINDOWS} windows of the log.
 */
export async function passGate(
  deps: OrderDeps,
  account: Account,
  event: EventRecord,
  receiveCount: number,
): Promise<GateOutcome> {
  const sequence = event.sequence ?? 0;
  const stored = account.settledThrough ?? 0;
  if (!mustWait(event.sequence, stored)) return { go: true, leased: false, settledThrough: stored };
  // Marked first, read second; the earlier event settles first and reads second (`afterSettled`): one
  // of the two sees the other, so a waiting event is never left to its safety-net wait alone. Marked, it
  // is leased for its first attempt, so the message sent again and its own make one attempt.
  if (!(await deps.events.markWaiting(event, deps.now()))) {
    return { go: false, seconds: waitSeconds(receiveCount), reason: 'an attempt of it is under way' };
  }
  let through = stored;
  for (let window = 0; window < ORDER_GATE_WINDOWS; window++) {
    const read = await deps.events.readLog(
      event.orgId,
      event.account,
      through,
      Math.min(sequence - 1 - through, ORDER_GATE_WINDOW),
    );
    const decision = decideGate(sequence, through, read, deps.now());
    through = decision.settledThrough;
    if (decision.kind === 'read-on') continue;
    const moved = await moveWatermark(deps, account, stored, through);
    if (decision.kind === 'go') return { go: true, leased: true, settledThrough: moved ? through : stored };
    // Sent again only from a message that already waited once: not on every look.
    if (decision.stalled && receiveCount > 1) await deps.queue.enqueue([decision.stalled]);
    return {
      go: false,
      seconds: waitSeconds(receiveCount),
      reason: `ordered: waits for sequence ${through + 1} to settle`,
    };
  }
  await moveWatermark(deps, account, stored, through);
  return { go: false, seconds: 1, reason: `ordered: the watermark is catching up (at ${through})` };
}

/**
 * After an ordered account's event settled (or a message found it settled): the watermark moves over it
 * when it was the next one, and the next event of the log, if it waits (marked by the gate), is sent
 * again now rather than after its safety-net wait.
 */
export async function afterSettled(
  deps: OrderDeps,
  account: Account,
  event: EventRecord,
  stored = account.settledThrough ?? 0,
): Promise<void> {
  if (!isOrdered(account, event) || !isSettled(event.webhookStatus)) return;
  const sequence = event.sequence ?? 0;
  if (sequence === stored + 1) await moveWatermark(deps, account, stored, sequence);
  const [next] = await deps.events.readLog(event.orgId, event.account, sequence, 1);
  if (next?.webhookStatus === 'pending' && next.nextAttemptAt !== undefined) {
    await deps.queue.enqueue([next]);
  }
}

/**
 * Moves the stored watermark on from what this consumer last saw; true when it did. Another consumer
 * moving it first is fine: the next look reads the log again.
 */
async function moveWatermark(deps: OrderDeps, account: Account, from: number, to: number): Promise<boolean> {
  return to > from && (await deps.directory.advanceSettledThrough(account.iban, account.orgId, from, to));
}
