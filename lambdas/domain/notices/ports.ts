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
  /**
   * The organization's notices, newest transition first, from the `offset`-th on, at most `limit`; `hasMore`
   * when more follow. Reads `offset + limit + 1` notices at most.
   */
  page(orgId: string, offset: number, limit: number): Promise<NoticePage>;
}

/** One page of an organization's notices. */
export interface NoticePage {
  readonly notices: readonly Notice[];
  readonly hasMore: boolean;
}
