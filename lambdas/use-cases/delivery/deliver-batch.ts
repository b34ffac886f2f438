import { answerReleasesHold, heldEndpointDeferSeconds, holdReleasable } from '#delivery/held-invocation-rule';
import {
  type ErroredHandling,
  errorRetrySeconds,
  errorReturnNotBefore,
  postponement,
  type ReplacementLimits,
} from '#delivery/postponement-rule';
import { type DeliveryTarget, targetRef } from '#domain/delivery-message';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';
import { type DeliveryDeps, type DeliveryOutcome, deliverEvent } from './deliver-event';
import { DeliveryContext } from './delivery-context';
import {
  AttemptsInFlight,
  Busy,
  type HeldMessage,
  HeldMessages,
  type HeldPullDeps,
  pullWhileHeld,
} from './pull-while-held';
import { type MessageFate, runMessage } from './queue-batch';

/** What a batch needs beyond single deliveries. */
export interface BatchDeps extends DeliveryDeps, ReplacementLimits {
  readonly queue: Pick<DeliveryQueue, 'postpone' | 'enqueue'>;
  /** Observes each outcome (logs and metrics live in the handler). */
  readonly observe: (id: string, outcome: DeliveryOutcome) => void;
  /** Observes a message that could not be processed and will come back. */
  readonly observeError: (messageId: string, error: unknown) => void;
  /** Observes a message replaced by a fresh one. */
  readonly observeReplaced?: (id: string, receiveCount: number) => void;
  /** Pulling more messages while the batch is held by slow attempts; absent: the batch only. */
  readonly pull?: HeldPullDeps;
}

/**
 * Delivers a batch concurrently and returns the ids of the messages to keep: those whose retry or
 * deferral was scheduled by moving their visibility timeout, and those that hit an unexpected error (they
 * come back within seconds, `errorRetrySeconds`, or after the queue's visibility timeout when even that
 * postponement fails). Every other message is done and may be deleted. The
 * batch reads each account and organization of its events once, fresh (its {@link DeliveryContext}).
 *
 * With `pull`, an invocation whose every message is a slow attempt pulls more messages from the queue and
 * delivers them on the same path, each receive with a fresh context, and settles them itself (deletes the
 * done ones; the waiting ones were postponed); a pulled message whose endpoint already has a slow attempt
 * in flight here waits without an attempt, and goes back to the queue at once if that endpoint then
 * answers quickly here. It returns once the batch and every pulled message are settled.
 */
export async function deliverBatch(deps: BatchDeps, messages: readonly QueueMessage[]): Promise<string[]> {
  const attempts = new AttemptsInFlight(deps.now);
  const tracked: BatchDeps = deps.pull ? { ...deps, sender: attempts.track(deps.sender) } : deps;
  const busy = new Busy();
  const seen = new Set<string>();
  const run = (batchDeps: BatchDeps, context: DeliveryContext, message: QueueMessage) =>
    busy.run(() =>
      runMessage(seen, message, (target) => handle(batchDeps, context, target, message), deps.observeError),
    );
  const context = new DeliveryContext(deps.directory, deps.sealer, deps.endpointSecrets);
  const batch = Promise.all(messages.map((message) => run(tracked, context, message)));
  const pull = deps.pull;
  const releases: Promise<void>[] = [];
  if (pull) {
    const holds = new HeldMessages();
    const releaseNow = (held: readonly HeldMessage[]) => {
      if (held.length > 0) releases.push(releaseHeld(deps, pull, held));
    };
    attempts.whenAnswered((url, answer) => {
      if (answerReleasesHold(answer, deps.healthPolicy)) releaseNow(holds.release(url, deps.now()));
    });
    const holdSeconds = (url: string, receiveCount: number) =>
      heldEndpointDeferSeconds(
        attempts.url(url),
        deps.now(),
        receiveCount,
        { ...pull.settings, slowMs: deps.healthPolicy.slowMs },
        (deps.random ?? Math.random)(),
      );
    // A pulled message deferred for a held (or slow) URL is remembered for that URL's release. A kept
    // message whose replacement failed is remembered too: releasing it only brings it back sooner.
    const runPulled = async (context: DeliveryContext, message: QueueMessage): Promise<MessageFate> => {
      let heldFor: { readonly url: string; readonly at: number; readonly until: number } | undefined;
      const heldEndpoint = (url: string, receiveCount: number) => {
        const seconds = holdSeconds(url, receiveCount);
        const at = deps.now();
        if (seconds !== undefined) heldFor = { url, at, until: at + seconds * 1000 };
        return seconds;
      };
      const fate = await run({ ...tracked, heldEndpoint }, context, message);
      if (fate === 'keep' && heldFor !== undefined) {
        const { url, at, until } = heldFor;
        const held = { messageId: message.messageId, receiptHandle: message.receiptHandle, until };
        // Its URL may have answered quickly while this message's hold was being written.
        if (holds.add(url, held, at)) releaseNow([held]);
      }
      return fate;
    };
    await pullWhileHeld(pull, {
      attempts,
      busy,
      batch,
      now: deps.now,
      onError: deps.observeError,
      handle: async (pulled) => {
        const fresh = new DeliveryContext(deps.directory, deps.sealer, deps.endpointSecrets);
        const fates = await Promise.all(pulled.map((message) => runPulled(fresh, message)));
        const done = pulled.filter((_, index) => fates[index] === 'done');
        await settlePulled(pull, done, deps.observeError);
      },
    });
  }
  const fates = await batch;
  // Every attempt has ended by now, so no release can start after this.
  await Promise.all(releases);
  return messages.filter((_, index) => fates[index] === 'keep').map((message) => message.messageId);
}

/**
 * Makes the messages deferred for a URL that has since answered quickly visible again. Best effort and
 * never rejects: one that fails comes back when its hold ends, as it would have without the release.
 */
async function releaseHeld(
  deps: BatchDeps,
  pull: NonNullable<BatchDeps['pull']>,
  held: readonly HeldMessage[],
): Promise<void> {
  const now = deps.now();
  const releasable = held.filter((message) => holdReleasable(message.until, now));
  await Promise.all(
    releasable.map(async (message) => {
      try {
        await deps.queue.postpone(message.receiptHandle, 0);
      } catch (error) {
        deps.observeError(message.messageId, error);
      }
    }),
  );
  pull.observeReleased?.(releasable.length, held.length - releasable.length);
}

/**
 * Delivers one message's event and postpones or replaces it when it waits. A delivery that throws is
 * observed and its message postponed by {@link errorRetrySeconds}; never replaced, so a persistent fault
 * still uses up the message's receives and reaches the dead-letter queue, whose reconciler decides.
 */
async function handle(
  deps: BatchDeps,
  context: DeliveryContext,
  target: DeliveryTarget,
  message: QueueMessage,
): Promise<MessageFate> {
  const taken: ErroredHandling = {};
  let outcome: DeliveryOutcome;
  try {
    outcome = await deliverEvent(deps, target, message.receiveCount, context, taken);
  } catch (error) {
    deps.observeError(message.messageId, error);
    return comeBackSoon(deps, message, taken);
  }
  deps.observe(target.id, outcome);
  // A scheduled retry, a duplicate that came early, or a deferral: hide the message until it is due.
  const waits = ['retry', 'not-due', 'deferred', 'waiting'] as const;
  if (!waits.some((kind) => kind === outcome.kind) || !('retryAfterSeconds' in outcome)) return 'done';
  return postpone(deps, target, message, outcome.retryAfterSeconds);
}

/**
 * Deletes the pulled messages that are done (the event source does this for its batch); one that fails
 * to delete comes back and is dropped then, its event settled.
 */
async function settlePulled(
  pull: HeldPullDeps,
  done: readonly QueueMessage[],
  onError: (messageId: string, error: unknown) => void,
): Promise<void> {
  if (done.length === 0) return;
  try {
    await pull.queue.delete(done.map((message) => message.receiptHandle));
  } catch (error) {
    for (const message of done) onError(message.messageId, error);
  }
}

/**
 * Hides a message that hit an unexpected error for {@link errorRetrySeconds} rather than the queue's
 * visibility timeout. Best effort: when this fails too, it is kept all the same and the visibility
 * timeout brings it back, as it did before.
 */
async function comeBackSoon(
  deps: BatchDeps,
  message: QueueMessage,
  taken: ErroredHandling,
): Promise<MessageFate> {
  const now = deps.now();
  const random = (deps.random ?? Math.random)();
  const notBefore = errorReturnNotBefore(taken, deps.leaseMs);
  const seconds = errorRetrySeconds(message.receiveCount, random, notBefore, now);
  try {
    await deps.queue.postpone(message.receiptHandle, seconds);
  } catch (error) {
    deps.observeError(message.messageId, error);
  }
  return 'keep';
}

/** Applies the {@link postponement} decision: the message is hidden, or replaced by a fresh one. */
async function postpone(
  deps: BatchDeps,
  target: DeliveryTarget,
  message: QueueMessage,
  seconds: number,
): Promise<MessageFate> {
  const decision = postponement(message, seconds, deps.now(), deps);
  if (decision.kind === 'replace') {
    await deps.queue.enqueue([targetRef(target)], decision.delaySeconds);
    deps.observeReplaced?.(target.id, message.receiveCount);
    return 'done';
  }
  await deps.queue.postpone(message.receiptHandle, decision.seconds);
  return 'keep';
}
