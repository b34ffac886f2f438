/**
 * What a test event needs from storage beyond what a delivery reads: the account's counter of test events
 * in the current window (the rate limit), one small item per account, written only by test events.
 */
import type { TestEventWindow } from './test-event-rule';

/** An account's budget of test events. */
export interface TestEventAllowance {
  /**
   * Takes one test event from the organization's account's budget in `window`: true when taken, false
   * when the window's limit is used up. Atomic across concurrent callers; a counter of an earlier window
   * starts again.
   */
  take(orgId: string, iban: string, window: TestEventWindow): Promise<boolean>;
  /** Removes the account's counter (the account is deleted): nothing of the IBAN stays behind. */
  forget(orgId: string, iban: string): Promise<void>;
}
