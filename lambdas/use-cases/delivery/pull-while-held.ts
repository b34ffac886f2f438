/**
 * The held invocation's side of a batch (`domain/delivery/held-invocation.ts` decides): which attempts
 * are in flight and since when and how each URL last answered, the pulled messages deferred for a held
 * URL until it answers quickly, how many messages are being handled, and the loop that pulls more
 * messages while every one of them is a slow attempt.
 */

import type { QueuePull } from '#delivery/held-invocation-port';
import {
  nextPullStep,
  type PullSettings,
  type UrlAnswer,
  type UrlInFlight,
} from '#delivery/held-invocation-rule';
import type { QueueMessage, SendResult, WebhookRequest, WebhookSender } from '#domain/ports';

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

/**
 * The attempts in flight in one invocation, by URL, with their start times, and each URL's last answer
 * here (told to listeners as it comes, for the release of held URLs).
 */
export class AttemptsInFlight {
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

/** A pulled message this invocation deferred because its URL was held here, and when that hold ends. */
export interface HeldMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  /** Epoch ms. */
  readonly until: number;
}

/**
 * The pulled messages deferred for a held URL, by URL, until an answer from it releases them, and when
 * each URL was last released: a message whose hold was still being written when its URL's releasing
 * answer came is released as it is added, so one rule (the answer's) decides for every message.
 */
export class HeldMessages {
  private readonly byUrl = new Map<string, HeldMessage[]>();
  private readonly releasedAt = new Map<string, number>();

  /**
   * Remembers `message`, held for `url` since `heldAt` (epoch ms). Returns true instead when `url` was
   * released since then: the caller releases it now.
   */
  add(url: string, message: HeldMessage, heldAt: number): boolean {
    const released = this.releasedAt.get(url);
    if (released !== undefined && released >= heldAt) return true;
    const held = this.byUrl.get(url);
    if (held) held.push(message);
    else this.byUrl.set(url, [message]);
    return false;
  }

  /** Records that `url` released its holds at `at` (epoch ms); removes and returns its messages. */
  release(url: string, at: number): HeldMessage[] {
    this.releasedAt.set(url, at);
    const held = this.byUrl.get(url) ?? [];
    this.byUrl.delete(url);
    return held;
  }
}

/** Counts the messages being handled. */
export class Busy {
  count = 0;

  /** Runs `work`, counted from this call (synchronously) until it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      this.count--;
    }
  }
}

/** What {@link pullWhileHeld} watches and how it hands over what it pulls. */
export interface HeldInvocation {
  readonly attempts: AttemptsInFlight;
  readonly busy: Busy;
  /** Settles when the event source's batch is handled. */
  readonly batch: Promise<unknown>;
  readonly now: () => number;
  /** Starts handling pulled messages (counted in `busy` before it returns); settles when they are settled. */
  readonly handle: (messages: readonly QueueMessage[]) => Promise<void>;
  readonly onError: (messageId: string, error: unknown) => void;
}

/**
 * Pulls messages while the invocation is held by slow attempts (its batch's, or pulled ones after the
 * batch settled) and hands them over; resolves once pulling stopped and every pulled message is
 * settled. A receive that fails stops pulling (reported): the batch goes on as it would without it.
 */
export async function pullWhileHeld(deps: HeldPullDeps, held: HeldInvocation): Promise<void> {
  let batchSettledAt: number | undefined;
  const markSettled = () => {
    batchSettledAt = held.now();
  };
  const settled = held.batch.then(markSettled, markSettled);
  const handling: Promise<void>[] = [];
  let pulled = 0;
  for (;;) {
    const step = nextPullStep(
      {
        now: held.now(),
        batchSettledAt,
        busy: held.busy.count,
        attemptStarts: held.attempts.starts(),
        pulled,
        remainingMs: deps.remainingMs(),
      },
      deps.settings,
    );
    if (step.kind === 'stop') break;
    if (step.kind === 'pull') {
      let messages: QueueMessage[];
      try {
        messages = await deps.queue.receive(step.max, deps.settings.receiveWaitSeconds);
      } catch (error) {
        held.onError('(receive)', error);
        break;
      }
      pulled += messages.length;
      // An empty receive already waited (a long poll); the sleep below still paces a queue that
      // answers at once, so looking again never spins.
      if (messages.length > 0) {
        deps.observePulled?.(messages.length);
        handling.push(held.handle(messages));
      }
    }
    // Once the batch is settled only the sleep ends a wait (pulled attempts may still hold the invocation).
    const sleep = deps.sleep(deps.pollMs);
    await (batchSettledAt === undefined ? Promise.race([sleep, settled]) : sleep);
  }
  await Promise.all(handling);
}
