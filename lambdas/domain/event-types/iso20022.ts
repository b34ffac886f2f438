/**
 * The ISO 20022 codes the built-in payloads carry, so receivers' bank software reads them as it reads a
 * bank's own status reports: transaction statuses (ExternalPaymentTransactionStatus1Code, as in pacs.002
 * and pain.002), reasons (ExternalStatusReason1Code for rejects, ExternalReturnReason1Code for returns and
 * refunds; the two lists share their codes) and direct debit sequence types (SequenceType3Code).
 *
 * Statuses are a closed list (`enum`): the set is small and stable. Reason codes are checked by shape (four
 * capitals or digits), not against a list: ISO publishes new codes several times a year and a bank may send
 * one before Herald knows it; the list below documents the codes SEPA credit transfers and direct debits
 * use.
 */

/** One ISO 20022 code with its ISO name and what it means for a receiver. */
export interface IsoCode {
  readonly code: string;
  readonly name: string;
  readonly meaning: string;
}

/** A reason code and the outcomes it is reported with. */
export interface ReasonCode extends IsoCode {
  /** Where a receiver meets it, e.g. "transfer rejected or returned; direct debit rejected or returned". */
  readonly seenWith: string;
}

/** The transaction statuses the built-in types use, in lifecycle order. */
// biome-ignore format: a table reads better one code a line
export const TRANSACTION_STATUS_CODES: readonly IsoCode[] = [
  { code: 'ACTC', name: 'AcceptedTechnicalValidation', meaning: 'The bank authenticated the instruction and found it well-formed.' },
  { code: 'ACCP', name: 'AcceptedCustomerProfile', meaning: 'Technical checks and the check of the customer profile passed.' },
  { code: 'ACFC', name: 'AcceptedFundsChecked', meaning: 'As ACCP, and an automatic check found enough funds.' },
  { code: 'ACWC', name: 'AcceptedWithChange', meaning: 'Accepted, but the bank changes a detail such as the execution date.' },
  { code: 'ACSP', name: 'AcceptedSettlementInProcess', meaning: 'Every check passed; the bank is executing the payment.' },
  { code: 'PDNG', name: 'Pending', meaning: 'Not final: further checks follow and another status will be reported.' },
  { code: 'ACSC', name: 'AcceptedSettlementCompleted', meaning: 'Settlement completed: the entry on the reporting bank\'s account is booked.' },
  { code: 'ACCC', name: 'AcceptedCreditSettlementCompleted', meaning: 'The creditor\'s account has been credited.' },
  { code: 'RJCT', name: 'Rejected', meaning: 'Rejected before settlement; the reason code says why.' },
  { code: 'CANC', name: 'Cancelled', meaning: 'Cancelled before execution after a request to cancel it.' },
];

/** The reason codes SEPA credit transfers and direct debits report, alphabetically. */
// biome-ignore format: a table reads better one code a line
export const REASON_CODES: readonly ReasonCode[] = [
  { code: 'AC01', name: 'IncorrectAccountNumber', meaning: 'The account number is wrong or does not exist (e.g. an invalid IBAN).', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'AC04', name: 'ClosedAccountNumber', meaning: 'The account is closed.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'AC06', name: 'BlockedAccount', meaning: 'The account is blocked: nothing may be posted to it.', seenWith: 'transfer returned; direct debit rejected or returned' },
  { code: 'AG01', name: 'TransactionForbidden', meaning: 'This kind of payment is not allowed on the account (e.g. a savings account, or one closed to direct debits).', seenWith: 'transfer returned; direct debit rejected or returned' },
  { code: 'AG02', name: 'InvalidBankOperationCode', meaning: 'The operation or transaction code is wrong, or the file is malformed.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'AM04', name: 'InsufficientFunds', meaning: 'Not enough funds on the account.', seenWith: 'transfer rejected; direct debit rejected or returned' },
  { code: 'AM05', name: 'Duplication', meaning: 'The payment duplicates an earlier one.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'BE04', name: 'MissingCreditorAddress', meaning: 'The creditor\'s address, which this payment needs, is missing or wrong.', seenWith: 'transfer returned' },
  { code: 'BE05', name: 'UnrecognisedInitiatingParty', meaning: 'The creditor identifier is wrong or unknown to the debtor\'s bank.', seenWith: 'direct debit rejected or returned' },
  { code: 'CNOR', name: 'CreditorBankIsNotRegistered', meaning: 'The creditor\'s bank cannot be reached in the clearing system under this BIC.', seenWith: 'transfer rejected or returned' },
  { code: 'CUST', name: 'RequestedByCustomer', meaning: 'Cancelled at the customer\'s request.', seenWith: 'transfer cancelled' },
  { code: 'DNOR', name: 'DebtorBankIsNotRegistered', meaning: 'The debtor\'s bank cannot be reached in the clearing system.', seenWith: 'direct debit rejected' },
  { code: 'DS02', name: 'OrderCancelled', meaning: 'An authorised user cancelled the order.', seenWith: 'transfer cancelled' },
  { code: 'FF01', name: 'InvalidFileFormat', meaning: 'The message or file was malformed.', seenWith: 'transfer rejected; direct debit rejected' },
  { code: 'FOCR', name: 'FollowingCancellationRequest', meaning: 'Returned because the sender recalled the payment and the recipient\'s bank agreed.', seenWith: 'transfer returned' },
  { code: 'MD01', name: 'NoMandate', meaning: 'No valid mandate: an unauthorised collection (as a refund, claimed by the debtor within 13 months of the debit).', seenWith: 'direct debit rejected, returned or refunded' },
  { code: 'MD02', name: 'MissingMandatoryInformationInMandate', meaning: 'Mandate data are missing or inconsistent.', seenWith: 'direct debit rejected or returned' },
  { code: 'MD06', name: 'RefundRequestByEndCustomer', meaning: 'The debtor asked for a refund of an authorised collection (SEPA Core: within eight weeks of the debit).', seenWith: 'direct debit refunded' },
  { code: 'MD07', name: 'EndCustomerDeceased', meaning: 'The account holder has died.', seenWith: 'transfer returned; direct debit rejected or returned' },
  { code: 'MS02', name: 'NotSpecifiedReasonCustomerGenerated', meaning: 'The customer refused without giving a reason (a debtor\'s refusal).', seenWith: 'direct debit rejected or returned' },
  { code: 'MS03', name: 'NotSpecifiedReasonAgentGenerated', meaning: 'The bank gave no reason.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'RC01', name: 'BankIdentifierIncorrect', meaning: 'The BIC is wrong.', seenWith: 'transfer rejected; direct debit rejected or returned' },
  { code: 'RR01', name: 'MissingDebtorAccountOrIdentification', meaning: 'Regulation requires the debtor\'s account or identification, and it is missing.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'RR02', name: 'MissingDebtorNameOrAddress', meaning: 'Regulation requires the debtor\'s name or address, and it is missing.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'RR03', name: 'MissingCreditorNameOrAddress', meaning: 'Regulation requires the creditor\'s name or address, and it is missing.', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'RR04', name: 'RegulatoryReason', meaning: 'Refused for a regulatory reason (e.g. sanctions screening).', seenWith: 'transfer rejected or returned; direct debit rejected or returned' },
  { code: 'SL01', name: 'SpecificServiceOfferedByDebtorAgent', meaning: 'A service the debtor set up at their bank refused it (e.g. a blocked creditor or an amount limit).', seenWith: 'direct debit rejected or returned' },
];

/**
 * Direct debit sequence types of SEPA. Since the 2016 rulebook a first collection may also be sent as
 * RCUR, so receivers should not require FRST before RCUR.
 */
// biome-ignore format: a table reads better one code a line
export const SEQUENCE_TYPES: readonly IsoCode[] = [
  { code: 'FRST', name: 'First', meaning: 'The first collection of a series under a recurring mandate.' },
  { code: 'RCUR', name: 'Recurring', meaning: 'A later collection under a recurring mandate.' },
  { code: 'FNAL', name: 'Final', meaning: 'The last collection of a series; the mandate ends with it.' },
  { code: 'OOFF', name: 'OneOff', meaning: 'The single collection of a one-off mandate.' },
];

/** The codes of a list, e.g. for a schema's `enum`. */
export function codesOf(list: readonly IsoCode[], wanted?: readonly string[]): string[] {
  const codes = list.map((entry) => entry.code);
  if (wanted === undefined) return codes;
  const unknown = wanted.filter((code) => !codes.includes(code));
  if (unknown.length > 0) throw new RangeError(`codesOf: not in the list: ${unknown.join(', ')}`);
  return [...wanted];
}
