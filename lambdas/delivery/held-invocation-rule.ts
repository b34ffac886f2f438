/**
 * A consumer invocation held by slow attempts keeps working instead of idling: once every message it is
 * handling is an attempt in flight for longer than a short threshold, it pulls more messages from its
 * own queue and delivers them on the same path. Without this, the first wave of a receiver that starts
 * hanging holds every poller (in AWS up to `consumerMaxConcurrency` invocations) for the attempt timeout
 * before the circuit breaker knows, and everyone else's messages wait behind it. Pure decisions;
 * `held-invocation.ts` applies them.
 */
import type { PULL_WHEN_HELD } from '#config/delivery';
import { type HealthPolicy, slowEndpointDeferSeconds } from './endpoint-health-rule';

/** When a held invocation pulls and stops pulling (`PULL_WHEN_HELD`, with the attempt timeout). */
export interface PullSettings {
  /** An attempt in flight this long is slow: its invocation may pull more messages. */
  readonly slowAfterMs: number;
  /** An attempt in flight this long holds its URL here: pulled messages to it wait without an attempt. */
  readonly heldAfterMs: number;
  /** At most this many extra messages per invocation. */
  readonly maxExtraMessages: number;
  /** At most this many attempts in flight at once in the invocation: no pull while they are. */
  readonly maxAttemptsInFlight: number;
  /** At most this many per receive (SQS's limit is 10). */
  readonly receiveMax: number;
  /** How long a receive may wait for a message (a long poll). */
  readonly receiveWaitSeconds: number;
  /** Remaining invocation time kept beyond one attempt timeout. */
  readonly marginMs: number;
  /** The sender's total timeout: a pulled attempt may take this long. */
  readonly attemptTimeoutMs: number;
}

/** The settings from `PULL_WHEN_HELD` and the sender's timeout. */
export function pullSettings(config: typeof PULL_WHEN_HELD, attemptTimeoutMs: number): PullSettings {
  return { ...config, attemptTimeoutMs };
}

/** What the invocation is doing now. */
export interface HeldState {
  /** Epoch ms. */
  readonly now: number;
  /**
   * When (epoch ms) the event source's batch was handled entirely (its own attempts done); undefined
   * while it is still being handled.
   */
  readonly batchSettledAt: number | undefined;
  /** Messages being handled (the batch's and the pulled ones). */
  readonly busy: number;
  /** Start times (epoch ms) of the attempts in flight. */
  readonly attemptStarts: readonly number[];
  /** Extra messages pulled so far. */
  readonly pulled: number;
  /** The invocation's remaining time (Lambda's `getRemainingTimeInMillis`). */
  readonly remainingMs: number;
}

/** What the invocation does next. */
export type PullStep =
  /** Pull at most `max` messages now. */
  | { readonly kind: 'pull'; readonly max: number }
  /** Something quick is still under way, or nothing is slow yet: look again shortly. */
  | { readonly kind: 'wait' }
  /** Pull no more in this invocation. */
  | {
      readonly kind: 'stop';
      readonly reason: 'nothing holds it' | 'a timeout past its batch' | 'cap reached' | 'deadline';
    };

/**
 * Whether the invocation pulls now. It pulls only while some attempt is slow, at most half a receive's
 * worth of messages is still quick work and fewer than `maxAttemptsInFlight` attempts are in flight, up
 * to a receive's worth in all: a batch of quick deliveries never pulls, so a healthy endpoint's path is
 * unchanged. It stops once nothing holds it (its batch is settled and no message is being handled), at
 * the cap, or when the remaining time no longer covers a receive's wait, a pulled attempt's timeout and
 * the margin.
 *
 * A settled batch does not stop the pull while pulled messages are still being handled: the invocation
 * cannot return before they end, and a poller that only waited for them would leave everyone's messages
 * behind the slow backlog unreceived. It pulls on for at most one attempt timeout past its batch, so
 * a receiver that keeps answering slowly cannot keep it pulling until its deadline: after that it
 * returns once its pulled messages are settled, as long as its batch could have held it.
 */
export function nextPullStep(state: HeldState, settings: PullSettings): PullStep {
  const settledAt = state.batchSettledAt;
  if (settledAt !== undefined && state.busy === 0) return { kind: 'stop', reason: 'nothing holds it' };
  if (settledAt !== undefined && state.now - settledAt >= settings.attemptTimeoutMs)
    return { kind: 'stop', reason: 'a timeout past its batch' };
  if (state.pulled >= settings.maxExtraMessages) return { kind: 'stop', reason: 'cap reached' };
  const pulledAttemptMs = settings.receiveWaitSeconds * 1000 + settings.attemptTimeoutMs;
  if (state.remainingMs < pulledAttemptMs + settings.marginMs) return { kind: 'stop', reason: 'deadline' };
  const slow = state.attemptStarts.filter((start) => isSlow(start, state.now, settings)).length;
  // Messages still being read, sent or recorded: a receive waits until at most half a receive's worth
  // is left, then tops them up to a receive's worth, so one straggler does not idle the invocation.
  const quick = Math.max(0, state.busy - slow);
  if (slow === 0 || quick > settings.receiveMax / 2) return { kind: 'wait' };
  // Each quick message may still become an attempt.
  const room = Math.min(
    settings.receiveMax - quick,
    settings.maxAttemptsInFlight - state.attemptStarts.length - quick,
    settings.maxExtraMessages - state.pulled,
  );
  return room > 0 ? { kind: 'pull', max: room } : { kind: 'wait' };
}

function isSlow(start: number, now: number, settings: Pick<PullSettings, 'slowAfterMs'>): boolean {
  return now - start >= settings.slowAfterMs;
}

/** What this invocation saw of one URL. */
export interface UrlInFlight {
  /** Start times (epoch ms) of its attempts in flight. */
  readonly starts: readonly number[];
  /** When it last answered an attempt here (any HTTP status; a timeout is no answer), if it did. */
  readonly lastAnswerAt?: number | undefined;
  /** How long that answer took (ms). */
  readonly lastAnswerMs?: number | undefined;
}

/** What holding a URL depends on: the pull's thresholds and the circuit breaker's `slowMs`. */
export type HoldSettings = Pick<PullSettings, 'heldAfterMs' | 'attemptTimeoutMs'> &
  Pick<HealthPolicy, 'slowMs'>;

/**
 * Seconds a pulled message waits when its URL is held here: an attempt to it has been in flight in this
 * invocation for `heldAfterMs` or more and the receiver has answered nothing here since that attempt
 * started. Undefined otherwise: sending would only hold another attempt on a receiver that is not
 * answering, while a receiver that keeps answering (a healthy one on a loaded machine, where a single
 * answer can take over a second) is merely busy. It comes back once that attempt must have ended (timed
 * out at worst) plus 2 s, when its failure is in the endpoint's health and the circuit breaker decides;
 * the wait grows with the receive count like a busy endpoint's (up to 10×, at most SQS's 15 min). A
 * shorter wait was tried and measured worse: the held URL's backlog kept coming back ahead of everyone
 * else's messages. No attempt is made or recorded. A healthy receiver held by one slow answer does not
 * pay this wait: its next quick answer here releases the message ({@link answerReleasesHold}), so the
 * growth with the receive count only lengthens the wait of a URL that keeps not answering quickly.
 *
 * A URL whose last answer here took `slowMs` or more (the circuit breaker's threshold for `degraded`) is
 * held too, for a slow endpoint's busy deferral: its endpoint is limited to a few slots anyway, so a
 * pulled message to it would only take a slot for another slow attempt that keeps this invocation (and
 * its poller) waiting after its batch settled, or fail to and be deferred after a slot write.
 *
 * @param jitter - [0, 1): spreads the messages that come back (0–4 s)
 */
export function heldEndpointDeferSeconds(
  url: UrlInFlight,
  now: number,
  receiveCount: number,
  settings: HoldSettings,
  jitter = 0,
): number | undefined {
  if (url.lastAnswerMs !== undefined && url.lastAnswerMs >= settings.slowMs) {
    return slowEndpointDeferSeconds(url.lastAnswerMs, jitter, receiveCount);
  }
  const answeredSince = (start: number) => url.lastAnswerAt !== undefined && url.lastAnswerAt >= start;
  const held = url.starts.filter((start) => now - start >= settings.heldAfterMs && !answeredSince(start));
  if (held.length === 0) return undefined;
  const oldest = Math.min(...held);
  const untilEnded = Math.ceil(Math.max(0, settings.attemptTimeoutMs - (now - oldest)) / 1000) + 2;
  const spread = Math.floor(Math.min(Math.max(jitter, 0), 0.999) * 5);
  return Math.min(900, untilEnded * Math.min(Math.max(receiveCount, 1), 10) + spread);
}

/** An answer a URL gave in this invocation: its HTTP status and how long it took. */
export interface UrlAnswer {
  readonly status: number;
  readonly ms: number;
}

/**
 * Whether an answer from a URL ends its holds here: a 2xx quicker than the circuit breaker's `slowMs`
 * shows the receiver is answering well (the attempt that held it was slow once, not hanging; or a slow
 * URL has recovered), so the pulled messages deferred for it go back to the queue at once instead of
 * after the hold's ~12 s. A slower answer keeps them waiting (a pulled message to that URL would be
 * deferred for it now anyway), and so does an error or a 429/503 asking for time: the circuit breaker
 * and the retry schedule decide about those, on the messages' own turn.
 */
export function answerReleasesHold(answer: UrlAnswer, settings: Pick<HealthPolicy, 'slowMs'>): boolean {
  return answer.status >= 200 && answer.status < 300 && answer.ms < settings.slowMs;
}

/** A held message is released only while its hold still has this long to run (ms). */
export const RELEASE_MARGIN_MS = 1_000;

/**
 * Whether a held message may still be released: only while the hold this invocation set still hides it,
 * with a margin. After that it may have been received again under a new receipt handle, and a visibility
 * change through the old one (SQS does not document whether it is refused) could show it to a second
 * consumer while the first handles it.
 *
 * @param until - when the hold ends (epoch ms)
 */
export function holdReleasable(until: number, now: number): boolean {
  return until - now > RELEASE_MARGIN_MS;
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
