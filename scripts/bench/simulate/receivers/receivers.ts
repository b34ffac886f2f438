/**
 * Webhook receivers as the sender meets them: each request gets an answer after some time, an answer
 * that never comes (a hanging receiver, cut by the sender's total timeout), or no connection at all (cut
 * by the connect timeout). Receivers count their requests.
 */
import { drawLatency, type Latency, type Random } from '../engine/random';

/** What happens to one request. */
export type ReceiverAnswer =
  /** An HTTP answer after `afterMs`. */
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly afterMs: number;
      readonly retryAfter?: string;
      readonly body?: string;
    }
  /** Connected, but no answer ever comes. */
  | { readonly kind: 'hang' }
  /** The connection is never established (packets dropped). */
  | { readonly kind: 'no-connection' }
  /** The connection is refused at once. */
  | { readonly kind: 'refused'; readonly afterMs: number };

/** A receiver model. */
export interface Receiver {
  readonly name: string;
  /** Requests received so far (those that connected). */
  readonly requests: number;
  /** The fate of a request arriving at `now`. */
  answer(now: number, random: Random): ReceiverAnswer;
}

/** Options shared by the answering receivers. */
export interface AnswerOptions {
  readonly latency?: Latency;
  /** `Retry-After` header value sent with each answer. */
  readonly retryAfter?: string;
}

class Counting implements Receiver {
  requests = 0;

  constructor(
    readonly name: string,
    private readonly decide: (now: number, random: Random) => ReceiverAnswer,
  ) {}

  answer(now: number, random: Random): ReceiverAnswer {
    const answer = this.decide(now, random);
    if (answer.kind === 'answer' || answer.kind === 'hang') this.requests++;
    return answer;
  }
}

/** Answers `status` after a latency drawn from `latency`. */
export function answering(name: string, status: number, options: AnswerOptions = {}): Receiver {
  const latency = options.latency ?? { medianMs: 60, p99Ms: 300 };
  return new Counting(name, (_now, random) => ({
    kind: 'answer',
    status,
    afterMs: drawLatency(latency, random),
    ...(options.retryAfter === undefined ? {} : { retryAfter: options.retryAfter }),
  }));
}

/** A healthy receiver: 200 after a short, long-tailed latency (default median 60 ms, p99 300 ms). */
export function fastReceiver(latency?: Latency): Receiver {
  return answering('fast', 200, latency === undefined ? {} : { latency });
}

/** A slow receiver: 200 after `ms` (default 3 s). */
export function slowReceiver(ms = 3_000): Receiver {
  return answering('slow', 200, { latency: ms });
}

/** A failing receiver: `status` (default 500), optionally with `Retry-After`. */
export function failingReceiver(status = 500, options: AnswerOptions = {}): Receiver {
  return answering(`failing-${status}`, status, options);
}

/** A receiver that accepts the connection and never answers. */
export function hangingReceiver(): Receiver {
  return new Counting('hanging', () => ({ kind: 'hang' }));
}

/** A host that drops connection attempts. */
export function unreachableReceiver(): Receiver {
  return new Counting('unreachable', () => ({ kind: 'no-connection' }));
}

/** A host that refuses connections at once. */
export function refusingReceiver(): Receiver {
  return new Counting('refusing', () => ({ kind: 'refused', afterMs: 1 }));
}

/**
 * Alternates between `up` and `down`: `up` for `upMs`, then `down` for `downMs`, and so on, from
 * `startMs` (epoch ms) on; `up` before it.
 */
export function flappingReceiver(options: {
  readonly up: Receiver;
  readonly down: Receiver;
  readonly upMs: number;
  readonly downMs: number;
  readonly startMs: number;
}): Receiver {
  const period = options.upMs + options.downMs;
  return new Counting('flapping', (now, random) => {
    const phase = now < options.startMs ? 0 : (now - options.startMs) % period;
    return (phase < options.upMs ? options.up : options.down).answer(now, random);
  });
}
