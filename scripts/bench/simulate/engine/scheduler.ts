/**
 * The discrete-event engine: a virtual clock (epoch ms), a binary-heap event queue and a run loop that
 * drives ordinary `async`/`await` code. Model methods return promises that scheduled events resolve;
 * after every event the loop lets the microtask queue run dry before it takes the next event, so code
 * written for real I/O (await a port, read an injected `now()`) runs unchanged and sees time stand still
 * while it computes. Same seed, same code → same run.
 */
import { BinaryHeap } from './heap';
import { Random } from './random';
import { currentScope, type Scope } from './scope';

/** A scheduled callback that can be cancelled before it runs. */
export interface Timer {
  readonly time: number;
  cancel(): void;
}

class Event implements Timer {
  cancelled = false;

  constructor(
    readonly time: number,
    readonly seq: number,
    readonly fn: () => void,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }
}

/** When {@link Scheduler.run} stops. */
export interface RunOptions {
  /** Virtual time (epoch ms) not to pass: events after it stay queued. */
  readonly until?: number;
  /** Checked after every event; true stops the run. Keep it cheap. */
  readonly stopWhen?: () => boolean;
  /** Safety net against a model that never goes quiet. */
  readonly maxEvents?: number;
}

/** Why a run stopped and how much it did. */
export interface RunResult {
  readonly reason: 'idle' | 'until' | 'stopped' | 'max-events';
  /** Events executed by this run (cancelled ones not counted). */
  readonly events: number;
  readonly endedAt: number;
}

/** Options of a {@link Scheduler}. */
export interface SchedulerOptions {
  readonly seed?: number;
  /** Virtual start time, epoch ms. */
  readonly startMs?: number;
}

/**
 * Yields to the event loop: by the time the returned promise resolves, every microtask queued before
 * (and every one those queued) has run. A message on a channel is a macrotask like `setImmediate`, but
 * cheaper per event; `close` releases the channel so that it does not keep the process alive.
 */
function drainer(): { readonly drain: () => Promise<void>; readonly close: () => void } {
  const channel = new MessageChannel();
  let wake: (() => void) | undefined;
  channel.port1.on('message', () => wake?.());
  return {
    drain: () =>
      new Promise((resolve) => {
        wake = resolve;
        channel.port2.postMessage(undefined);
      }),
    close: () => channel.port1.close(),
  };
}

/** The virtual-time scheduler. */
export class Scheduler {
  readonly random: Random;
  /** Errors thrown by callbacks or by processes started with {@link spawn}. */
  readonly errors: unknown[] = [];
  private clock: number;
  private seq = 0;
  private executed = 0;
  private running = false;
  private readonly queue = new BinaryHeap<Event>((a, b) =>
    a.time === b.time ? a.seq < b.seq : a.time < b.time,
  );

  constructor(options: SchedulerOptions = {}) {
    this.random = new Random(options.seed ?? 1);
    this.clock = options.startMs ?? Date.parse('2026-11-30T08:00:00.000Z');
  }

  /** The virtual time, epoch ms: pass it as the use-cases' `now`. */
  readonly now = (): number => this.clock;

  /** Callbacks scheduled so far and executed so far. */
  get counts(): { readonly scheduled: number; readonly executed: number; readonly queued: number } {
    return { scheduled: this.seq, executed: this.executed, queued: this.queue.size };
  }

  /** Runs `fn` at virtual time `time` (not before now), after everything already scheduled for then. */
  at(time: number, fn: () => void): Timer {
    if (!(time >= this.clock)) throw new RangeError(`at(${time}) is before now (${this.clock})`);
    const event = new Event(time, this.seq++, fn);
    this.queue.push(event);
    return event;
  }

  /** Runs `fn` `ms` from now. */
  after(ms: number, fn: () => void): Timer {
    return this.at(this.clock + Math.max(0, ms), fn);
  }

  /**
   * Resolves `ms` of virtual time from now. Started inside a killed {@link Scope} it never resolves: the
   * caller's code stops there, as a frozen Lambda environment's would.
   */
  sleep(ms: number): Promise<void> {
    const scope = currentScope();
    return new Promise((resolve) => {
      this.after(ms, () => {
        if (alive(scope)) resolve();
      });
    });
  }

  /**
   * `promise`, but its outcome reaches the caller only while the caller's scope is alive: for model calls
   * whose answer comes from an event rather than from {@link sleep}.
   */
  guard<T>(promise: Promise<T>): Promise<T> {
    const scope = currentScope();
    if (scope === undefined) return promise;
    return new Promise<T>((resolve, reject) => {
      promise.then(
        (value) => alive(scope) && resolve(value),
        (error: unknown) => alive(scope) && reject(error),
      );
    });
  }

  /** Starts an async process now; what it throws is kept in {@link errors}. */
  spawn(process: () => Promise<unknown>): void {
    this.at(this.clock, () => {
      process().catch((error: unknown) => this.errors.push(error));
    });
  }

  /** Executes events in time order until the queue is empty or an option stops it. */
  async run(options: RunOptions = {}): Promise<RunResult> {
    if (this.running) throw new Error('Scheduler.run is already running');
    this.running = true;
    const { until = Number.POSITIVE_INFINITY, stopWhen, maxEvents = Number.POSITIVE_INFINITY } = options;
    const { drain, close } = drainer();
    let events = 0;
    const result = (reason: RunResult['reason']): RunResult => ({ reason, events, endedAt: this.clock });
    try {
      await drain();
      for (;;) {
        if (stopWhen?.()) return result('stopped');
        const next = this.queue.peek();
        if (next === undefined) return result('idle');
        if (next.time > until) {
          this.clock = Math.max(this.clock, until);
          return result('until');
        }
        if (events >= maxEvents) return result('max-events');
        this.queue.pop();
        if (next.cancelled) continue;
        this.clock = next.time;
        events++;
        this.executed++;
        try {
          next.fn();
        } catch (error) {
          this.errors.push(error);
        }
        await drain();
      }
    } finally {
      close();
      this.running = false;
    }
  }
}

function alive(scope: Scope | undefined): boolean {
  return scope === undefined || scope.isAlive;
}
