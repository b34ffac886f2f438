/**
 * The built-in catalog, declared once, and how the receivers' uses the interface names map onto it.
 */
import { CREDIT_RECEIVED } from './credit-received';
import { CREDIT_TRANSFER_STATUS_CHANGE } from './credit-transfer-status-change';
import { DIRECT_DEBIT_STATUS_CHANGE } from './direct-debit-status-change';
import type { EventTypeDefinition, ReceiverUse } from './model';

/** Every built-in event type; operators add theirs beside them but cannot remove or replace these. */
export const BUILT_IN_EVENT_TYPES: readonly EventTypeDefinition[] = [
  CREDIT_TRANSFER_STATUS_CHANGE,
  CREDIT_RECEIVED,
  DIRECT_DEBIT_STATUS_CHANGE,
];

/**
 * The receivers' uses and the events that report them. Some uses are a case of a broader type, because
 * that is how banks report them: a closed recipient account is not an event of its own but a transfer
 * rejected (pacs.002 `RJCT`) or returned (pacs.004) with reason `AC04`.
 */
export const RECEIVER_USES: readonly ReceiverUse[] = [
  { use: 'Money arrived on the account (mark an order paid)', type: 'credit_received' },
  {
    use: 'An outgoing transfer changed status (keep a copy of transfers, update a dashboard)',
    type: 'credit_transfer_status_change',
  },
  {
    use: "A recipient's bank account was found closed",
    type: 'credit_transfer_status_change',
    when: '`status` is `rejected` or `returned` and `reason_code` is `AC04`',
  },
  {
    use: 'A recurring direct debit failed (tell accounting)',
    type: 'direct_debit_status_change',
    when: '`sequence_type` is `RCUR` (or `FRST`/`FNAL`, the first and last of the series) and `status` is `rejected` or `returned`',
  },
  {
    use: 'A debtor claimed a direct debit back',
    type: 'direct_debit_status_change',
    when: '`status` is `refunded` (`reason_code` `MD06`, or `MD01` when the mandate is disputed)',
  },
  {
    use: "A debtor's bank account was found closed",
    type: 'direct_debit_status_change',
    when: '`status` is `rejected` or `returned` and `reason_code` is `AC04`',
  },
];

/** The built-in type of that name, if any. */
export function builtInEventType(type: string): EventTypeDefinition | undefined {
  return BUILT_IN_EVENT_TYPES.find((definition) => definition.type === type);
}
