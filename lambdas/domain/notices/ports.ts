/**
 * The operational log: an organization's notices, each stored once under its deterministic id.
 */
import type { Notice } from './notice';

/** Where notices are kept, per organization. */
export interface OperationalLog {
  /**
   * Stores the notice unless one with its id is stored already (a conditional write): true when this call
   * stored it, false when another consumer, a retry or an earlier run had.
   */
  record(notice: Notice): Promise<boolean>;
  /** The organization's newest notices, newest first, at most `limit`. */
  latest(orgId: string, limit: number): Promise<readonly Notice[]>;
}
