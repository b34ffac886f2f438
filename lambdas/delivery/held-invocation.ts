/**
 * An invocation held by slow attempts (`held-invocation-rule.ts` decides): which attempts are in flight
 * and since when and how each URL last answered, the pulled messages deferred for a held URL until it
 * answers quickly, how many messages are being handled, and the loop that pulls more messages while every
 * one of them is a slow attempt, and settles what it pulled (the event source settles its batch).
 */

import type { DeliveryQueue, QueueMessage, SendResult, WebhookRequest, WebhookSender } from '#domain/ports';
import type { HealthPolicy } from './endpoint-health-rule';
import type { QueuePull } from './held-invocation-port';
import {
  answerReleasesHold,
  type HeldMessage,
  HeldMessages,
  heldEndpointDeferSeconds,
  holdReleasable,
  nextPullStep,
  type PullSettings,
  type UrlAnswer,
  type UrlInFlight,
} from './held-invocation-rule';
import type { MessageFate } from './postponement';

/** What pulling needs beyond a batch (absent: the invocation handles its batch only). */
export interface HeldPullDeps {
  readonly queue: QueuePull;
  readonly settings: PullSettings;
  /** The invocation's remaining time in ms (Lambda's `context.getRemainingTimeInMillis`). */
  readonly remainingMs: () => number;
  /** How long to wait before looking again (`PULL_WHEN_HELD.pollMs`). */
  readonly pollMs: number;
  /** Resolves after `ms`: real timers in the handler, the injected clock in tests. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Observes each receive that brought messages (for logs). */
  readonly observePulled?: (count: number) => void;
  /** Observes each release of a held URL: messages made visible again, and those whose hold had run out. */
  readonly observeReleased?: (released: number, expired: number) => void;
}

/** What the held invocation takes from its batch. */
export interface HeldDeps {
  readonly queue: Pick<DeliveryQueue, 'postpone'>;
  /** The circuit breaker's `slowMs`: a URL that answered slower is held, a quicker 2xx releases it. */
  readonly healthPolicy: Pick<HealthPolicy, 'slowMs'>;
  readonly now: () => number;
  /** [0, 1): spreads the held messages' returns; `Math.random` unless a test fixes it. */
  readonly random?: () => number;
  readonly observeError: (messageId: string, error: unknown) => void;
}

/** A pulled message's wait for a URL held here: since when, until when, and how many seconds. */
export interface UrlHold {
  readonly url: string;
  /** Epoch ms. */
  readonly at: number;
  /** Epoch ms. */
  readonly until: number;
  readonly seconds: number;
}

/** The URLs a held invocation holds: a pulled message to one waits, without an attempt. */
export interface HeldUrls {
  holdFor(url: string, receiveCount: number): UrlHold | undefined;
}

/** One invocation held by slow attempts: what it sends, holds and pulls. */
export class HeldInvocation implements HeldUrls {
  private readonly attempts: AttemptsInFlight;
  private readonly holds = new HeldMessages();
  /** Messages being handled (the batch's and the pulled ones). */
  private busy = 0;
  private readonly releases: Promise<void>[] = [];

  constructor(
    private readonly deps: HeldDeps,
    private readonly pull: HeldPullDeps,
  ) {
    this.attempts = new AttemptsInFlight(deps.now);
    this.attempts.whenAnswered((url, answer) => {
      if (answerReleasesHold(answer, deps.healthPolicy)) this.releaseNow(this.holds.release(url, deps.now()));
    });
  }

  /** The sender, with every request it sends counted in flight until it is answered. */
  track(sender: WebhookSender): WebhookSender {
    return this.attempts.track(sender);
  }

  /** Runs a message's handling, counted as busy from this call (synchronously) until it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    try {
      return await work();
    } finally {
      this.busy--;
    }
  }

  /**
   * How long a pulled message to `url` waits because its endpoint has a slow attempt in flight here
   * (`heldEndpointDeferSeconds`); undefined: it goes on.
   */
  holdFor(url: string, receiveCount: number): UrlHold | undefined {
    const seconds = heldEndpointDeferSeconds(
      this.attempts.url(url),
      this.deps.now(),
      receiveCount,
      { ...this.pull.settings, slowMs: this.deps.healthPolicy.slowMs },
      (this.deps.random ?? Math.random)(),
    );
    if (seconds === undefined) return undefined;
    const at = this.deps.now();
    return { url, at, until: at + seconds * 1000, seconds };
  }

  /**
   * Remembers a pulled message kept for a held URL, for that URL's release. A kept message whose
   * postponement failed is remembered too: releasing it only brings it back sooner.
   */
  remember(message: QueueMessage, hold: UrlHold): void {
    const held = { messageId: message.messageId, receiptHandle: message.receiptHandle, until: hold.until };
    // Its URL may have answered quickly while this message's hold was being written.
    if (this.holds.add(hold.url, held, hold.at)) this.releaseNow([held]);
  }

  /**
   * Pulls messages while the invocation is held by slow attempts (its batch's, or pulled ones after the
   * batch settled), hands them to `handle` (which counts each as busy before it returns) and deletes the
   * done ones; resolves once pulling stopped and every pulled message is settled. A receive that fails
   * stops pulling (reported): the batch goes on as it would without it.
   *
   * @param batch - settles when the event source's batch is handled
   */
  async pullWhileHeld(
    batch: Promise<unknown>,
    handle: (messages: readonly QueueMessage[]) => Promise<readonly MessageFate[]>,
  ): Promise<void> {
    const { pull } = this;
    let batchSettledAt: number | undefined;
    const markSettled = () => {
      batchSettledAt = this.deps.now();
    };
    const settled = batch.then(markSettled, markSettled);
    const handling: Promise<void>[] = [];
    let pulled = 0;
    for (;;) {
      const step = nextPullStep(
        {
          now: this.deps.now(),
          batchSettledAt,
          busy: this.busy,
          attemptStarts: this.attempts.starts(),
          pulled,
          remainingMs: pull.remainingMs(),
        },
        pull.settings,
      );
      if (step.kind === 'stop') break;
      if (step.kind === 'pull') {
        let messages: QueueMessage[];
        try {
          messages = await pull.queue.receive(step.max, pull.settings.receiveWaitSeconds);
        } catch (error) {
          this.deps.observeError('(receive)', error);
          break;
        }
        pulled += messages.length;
        // An empty receive already waited (a long poll); the sleep below still paces a queue that
        // answers at once, so looking again never spins.
        if (messages.length > 0) {
          pull.observePulled?.(messages.length);
          handling.push(this.settlePulled(messages, handle(messages)));
        }
      }
      // Once the batch is settled only the sleep ends a wait (pulled attempts may still hold the invocation).
      const sleep = pull.sleep(pull.pollMs);
      await (batchSettledAt === undefined ? Promise.race([sleep, settled]) : sleep);
    }
    await Promise.all(handling);
  }

  /** Settles once every release started has ended; none starts after the invocation's last attempt. */
  async released(): Promise<void> {
    await Promise.all(this.releases);
  }

  /**
   * Deletes the pulled messages that are done (the event source does this for its batch); one that fails
   * to delete comes back and is dropped then, its event settled.
   */
  private async settlePulled(
    pulled: readonly QueueMessage[],
    fates: Promise<readonly MessageFate[]>,
  ): Promise<void> {
    const settled = await fates;
    const done = pulled.filter((_, index) => settled[index] === 'done');
    if (done.length === 0) return;
    try {
      await this.pull.queue.delete(done.map((message) => message.receiptHandle));
    } catch (error) {
      for (const message of done) this.deps.observeError(message.messageId, error);
    }
  }

  private releaseNow(held: readonly HeldMessage[]): void {
    if (held.length > 0) this.releases.push(this.releaseHeld(held));
  }

  /**
   * Makes the messages deferred for a URL that has since answered quickly visible again. Best effort and
   * never rejects: one that fails comes back when its hold ends, as it would have without the release.
   */
  private async releaseHeld(held: readonly HeldMessage[]): Promise<void> {
    const now = this.deps.now();
    const releasable = held.filter((message) => holdReleasable(message.until, now));
    await Promise.all(
      releasable.map(async (message) => {
        try {
          await this.deps.queue.postpone(message.receiptHandle, 0);
        } catch (error) {
          this.deps.observeError(message.messageId, error);
        }
      }),
    );
    this.pull.observeReleased?.(releasable.length, held.length - releasable.length);
  }
}

/**
 * The attempts in flight in one invocation, by URL, with their start times, and each URL's last answer
 * here (told to listeners as it comes, for the release of held URLs).
 */
class AttemptsInFlight {
  private readonly inFlight = new Map<number, { readonly url: string; readonly at: number }>();
  private readonly answered = new Map<string, { readonly at: number; readonly ms: number }>();
  private readonly listeners: ((url: string, answer: UrlAnswer) => void)[] = [];
  private next = 0;

  constructor(private readonly now: () => number) {}

  /**
   * Calls `listener` with each answer (any HTTP status; a timeout is none), inside the attempt's send:
   * it must not throw, or the answered attempt would count as a failed send.
   */
  whenAnswered(listener: (url: string, answer: UrlAnswer) => void): void {
    this.listeners.push(listener);
  }

  /** The sender, with every request it sends counted in flight until it is answered. */
  track(sender: WebhookSender): WebhookSender {
    return {
      send: async (request: WebhookRequest): Promise<SendResult> => {
        const id = this.next++;
        this.inFlight.set(id, { url: request.url, at: this.now() });
        try {
          const result = await sender.send(request);
          if (result.status !== 0) {
            const answer = { status: result.status, ms: result.elapsedMs };
            this.answered.set(request.url, { at: this.now(), ms: answer.ms });
            for (const listener of this.listeners) listener(request.url, answer);
          }
          return result;
        } finally {
          this.inFlight.delete(id);
        }
      },
    };
  }

  /** Start times (epoch ms) of the attempts in flight. */
  starts(): number[] {
    return [...this.inFlight.values()].map((a) => a.at);
  }

  /** What this invocation saw of `url`: its attempts in flight, and its last answer and how long it took. */
  url(url: string): UrlInFlight {
    const starts = [...this.inFlight.values()].filter((a) => a.url === url).map((a) => a.at);
    const answer = this.answered.get(url);
    return { starts, lastAnswerAt: answer?.at, lastAnswerMs: answer?.ms };
  }
}
