/**
 * Long polling: a receive with a wait time returns as soon as at least one message is receivable, or
 * empty when the wait ends. Waiting receives are served first come, first served.
 */
import type { Scheduler, Timer } from '../../engine/scheduler';
import type { ReceivedMessage } from './message';

interface Waiter {
  readonly max: number;
  readonly visibilityMs: number;
  readonly resolve: (messages: ReceivedMessage[]) => void;
  readonly deadline: Timer;
}

/** The waiting receives of one queue. */
export class LongPolls {
  private readonly waiters: Waiter[] = [];
  private wake: Timer | undefined;

  /**
   * @param take - hands out up to `max` receivable messages now (possibly none)
   * @param nextVisibleAt - the earliest time a message may become receivable, if any is stored
   */
  constructor(
    private readonly scheduler: Scheduler,
    private readonly take: (max: number, visibilityMs: number) => ReceivedMessage[],
    private readonly nextVisibleAt: () => number | undefined,
  ) {}

  /** Waits up to `waitMs` for messages. */
  wait(max: number, visibilityMs: number, waitMs: number): Promise<ReceivedMessage[]> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        max,
        visibilityMs,
        resolve,
        deadline: this.scheduler.after(waitMs, () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          resolve([]);
        }),
      };
      this.waiters.push(waiter);
      this.arm();
    });
  }

  /** Serves waiting receives from what is receivable now; call after anything that may free a message. */
  pump(): void {
    while (this.waiters.length > 0) {
      const waiter = this.waiters[0] as Waiter;
      const got = this.take(waiter.max, waiter.visibilityMs);
      if (got.length === 0) break;
      this.waiters.shift();
      waiter.deadline.cancel();
      waiter.resolve(got);
    }
    this.arm();
  }

  /** Schedules one wake-up for when the next message becomes receivable, while anyone waits. */
  private arm(): void {
    if (this.waiters.length === 0) return;
    const next = this.nextVisibleAt();
    if (next === undefined) return;
    const now = this.scheduler.now();
    // A message receivable now that no receive could take (it expired or was redriven meanwhile) must not
    // spin the clock: look again a millisecond later.
    const at = next > now ? next : now + 1;
    if (this.wake !== undefined && this.wake.time <= at) return;
    this.wake?.cancel();
    this.wake = this.scheduler.at(at, () => {
      this.wake = undefined;
      this.pump();
    });
  }
}
