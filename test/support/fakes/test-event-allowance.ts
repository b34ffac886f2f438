/**
 * {@link TestEventAllowance} in memory, with the DynamoDB adapter's conditions: one counter per
 * organization's account, started again by a later window, taken while below the window's limit, refused
 * by a counter of a later window. `writes` counts the conditional writes the adapter would make (refused
 * ones included: DynamoDB bills those too).
 */
import type { TestEventAllowance } from '#delivery/test-event-port';
import type { TestEventWindow } from '#delivery/test-event-rule';

export class FakeTestEventAllowance implements TestEventAllowance {
  readonly counters = new Map<string, { start: number; sent: number; expiresAt: number }>();
  writes = 0;

  async take(orgId: string, iban: string, window: TestEventWindow): Promise<boolean> {
    const key = `${orgId}#${iban}`;
    const counter = this.counters.get(key);
    this.writes += 1;
    if (!counter || counter.start < window.start) {
      this.counters.set(key, { start: window.start, sent: 1, expiresAt: window.expiresAt });
      return true;
    }
    this.writes += 1;
    if (counter.start !== window.start || counter.sent >= window.limit) return false;
    this.counters.set(key, { ...counter, sent: counter.sent + 1 });
    return true;
  }

  async forget(orgId: string, iban: string): Promise<void> {
    this.counters.delete(`${orgId}#${iban}`);
  }
}
