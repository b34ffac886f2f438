/**
 * The delivery consumer's batch: each message decoded (one per event in flight), its event delivered
 * (`deliver-event.ts`), and the message settled with the queue: done, hidden until its wait is over or
 * replaced (`postponement.ts`), or, when its delivery threw, back within seconds. An invocation held by
 * slow attempts pulls more messages and handles them on the same path (`held-invocation.ts`).
 */
import { type DeliveryTarget, decodeDeliveryMessage, deliveryKey } from '#domain/delivery-message';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';
import { deliverMessage } from './deliver-event';
import { DeliveryContext } from './delivery-context';
import type { DeliveryDeps } from './delivery-deps';
import type { DeliveryOutcome } from './delivery-outcome';
import { HeldInvocation, type HeldPullDeps, type UrlHold } from './held-invocation';
import { comeBackSoon, type MessageFate, type PostponeDeps, postpone } from './postponement';

/** What a batch needs beyond single deliveries. */
export interface BatchDeps extends DeliveryDeps, PostponeDeps {
  readonly queue: Pick<DeliveryQueue, 'postpone' | 'enqueue'>;
  /** Observes each outcome (logs and metrics live in the handler). */
  readonly observe: (id: string, outcome: DeliveryOutcome) => void;
  /** Observes a message that could not be processed and will come back. */
  readonly observeError: (messageId: string, error: unknown) => void;
  /** Pulling more messages while the batch is held by slow attempts; absent: the batch only. */
  readonly pull?: HeldPullDeps;
}

/**
 * Delivers a batch concurrently and returns the ids of the messages to keep: those whose retry or
 * deferral was scheduled by moving their visibility timeout, and those that hit an unexpected error (they
 * come back within seconds, `errorRetrySeconds`, or after the queue's visibility timeout when even that
 * postponement fails). Every other message is done and may be deleted. The batch reads each account and
 * organization of its events once, fresh (its {@link DeliveryContext}).
 *
 * With `pull`, an invocation whose every message is a slow attempt pulls more messages from the queue and
 * delivers them on the same path, each receive with a fresh context, and settles them itself (deletes the
 * done ones; the waiting ones were postponed); a pulled message whose endpoint already has a slow attempt
 * in flight here waits without an attempt, and goes back to the queue at once if that endpoint then
 * answers quickly here. It returns once the batch and every pulled message are settled.
 */
export async function deliverBatch(deps: BatchDeps, messages: readonly QueueMessage[]): Promise<string[]> {
  const held = deps.pull ? new HeldInvocation(deps, deps.pull) : undefined;
  const sending: BatchDeps = held ? { ...deps, sender: held.track(deps.sender) } : deps;
  const seen = new Set<string>();
  const handleAll = (batch: readonly QueueMessage[], pulled: boolean) => {
    const context = new DeliveryContext(
      deps.directory,
      deps.sealer,
      deps.endpointSecrets,
      deps.endpointStore,
    );
    const handle = (message: QueueMessage) =>
      handleMessage(sending, context, seen, message, pulled ? held : undefined);
    return Promise.all(batch.map((message) => (held ? held.run(() => handle(message)) : handle(message))));
  };
  const batch = handleAll(messages, false);
  await held?.pullWhileHeld(batch, (pulled) => handleAll(pulled, true));
  const fates = await batch;
  // Every attempt has ended by now, so no release can start after this.
  await held?.released();
  return messages.filter((_, index) => fates[index] === 'keep').map((message) => message.messageId);
}

/**
 * One message: its event delivered, then the message settled. A pulled message kept for a URL held here
 * is remembered for that URL's release.
 */
async function handleMessage(
  deps: BatchDeps,
  context: DeliveryContext,
  seen: Set<string>,
  message: QueueMessage,
  held: HeldInvocation | undefined,
): Promise<MessageFate> {
  let hold: UrlHold | undefined;
  const fate = await runMessage(
    seen,
    message,
    async (target) => {
      const delivery = await deliverMessage(deps, target, message.receiveCount, context, held);
      if (delivery.kind === 'thrown') {
        deps.observeError(message.messageId, delivery.error);
        return comeBackSoon(deps, message, delivery.left);
      }
      deps.observe(target.id, delivery);
      if (delivery.kind === 'deferred') hold = delivery.hold;
      const wait = waitOf(delivery);
      return wait === undefined ? 'done' : postpone(deps, target, message, wait);
    },
    deps.observeError,
  );
  if (fate === 'keep' && hold !== undefined) held?.remember(message, hold);
  return fate;
}

/** A scheduled retry, a duplicate that came early, a deferral, a wait for the order: seconds until due. */
function waitOf(outcome: DeliveryOutcome): number | undefined {
  const waits = ['retry', 'not-due', 'deferred', 'waiting'] as const;
  if (!waits.some((kind) => kind === outcome.kind) || !('retryAfterSeconds' in outcome)) return undefined;
  return outcome.retryAfterSeconds;
}

/**
 * Handles a batch on the path both queue consumers share (delivery and dead-letter reconciliation) and
 * returns the ids of the messages to keep (see {@link runMessage}).
 */
export async function runBatch(
  messages: readonly QueueMessage[],
  handle: (target: DeliveryTarget, message: QueueMessage) => Promise<MessageFate>,
  onError: (messageId: string, error: unknown) => void,
): Promise<string[]> {
  const seen = new Set<string>();
  const fates = await Promise.all(messages.map((message) => runMessage(seen, message, handle, onError)));
  return messages.filter((_, index) => fates[index] === 'keep').map((message) => message.messageId);
}

/**
 * Handles one message of a batch whose deliveries (an event, or an event at one endpoint) are `seen`
 * while in flight here. A malformed body is reported and done (it can never succeed); a second message
 * for a delivery in flight is done (the first one carries on); a message whose handling throws is reported and kept, so it comes back after the
 * queue's visibility timeout. Once a handling ends its event leaves `seen`: a message that comes back
 * into the same invocation (a held one keeps pulling) may be the event's only one, the same message
 * postponed or its replacement, and is handled again rather than deleted as a copy.
 */
async function runMessage(
  seen: Set<string>,
  message: QueueMessage,
  handle: (target: DeliveryTarget, message: QueueMessage) => Promise<MessageFate>,
  onError: (messageId: string, error: unknown) => void,
): Promise<MessageFate> {
  const target = decodeDeliveryMessage(message.body);
  if (target === undefined) {
    onError(message.messageId, new Error('message body is not {"id": "<event id>", "log", "seq"}'));
    return 'done';
  }
  // One delivery in flight per event and endpoint: an event's messages for two endpoints both go on.
  const key = deliveryKey(target);
  if (seen.has(key)) return 'done';
  seen.add(key);
  try {
    return await handle(target, message);
  } catch (error) {
    onError(message.messageId, error);
    return 'keep';
  } finally {
    seen.delete(key);
  }
}
