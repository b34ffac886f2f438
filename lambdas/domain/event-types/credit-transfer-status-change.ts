/**
 * `credit_transfer_status_change`, the seed's one named type: an outgoing transfer's lifecycle, as the
 * bank reports it in status reports (pain.002/pacs.002) and returns (pacs.004). A recipient account
 * found closed is this type with status `rejected` or `returned` and reason code `AC04`.
 */
import { FIELDS, field, party, payloadSchema, type StatusCodes, statusChange } from './conventions';
import { builtInType } from './model';

/**
 * The readable statuses and the ISO 20022 status codes each is reported with. `returned` has none: a
 * return comes after settlement as a return message carrying only a reason.
 */
export const CREDIT_TRANSFER_STATUS_CODES = {
  accepted: ['ACTC', 'ACCP', 'ACFC', 'ACWC', 'ACSP'],
  pending: ['PDNG'],
  settled: ['ACSC', 'ACCC'],
  rejected: ['RJCT'],
  cancelled: ['CANC'],
  returned: [],
} as const satisfies StatusCodes;

const changed = statusChange(CREDIT_TRANSFER_STATUS_CODES, {
  noun: 'transfer',
  status:
    "Where the transfer is: `accepted` by the bank, `pending` further checks, `settled` (final, money sent), `rejected` before settlement, `cancelled` before execution, or `returned` by the recipient's bank after settlement (the money is back).",
  statusCode:
    'ISO 20022 transaction status the bank reported (ExternalPaymentTransactionStatus1Code); absent when returned.',
  reasonCode:
    'ISO 20022 reason the bank gave (ExternalStatusReason1Code when rejected, ExternalReturnReason1Code when returned), e.g. `AC04` closed account, `AC01` incorrect account number, `AM04` insufficient funds, `MS03` no reason given.',
  reasonRequired: {
    statuses: ['rejected', 'returned'],
    description: 'A rejected or returned transfer says why in reason_code.',
  },
});

const schema = payloadSchema(
  'Outgoing credit transfer status change',
  {
    transfer_id: field(FIELDS.gatewayId, "The gateway's id of the transfer, as given when it was ordered."),
    end_to_end_id: field(
      FIELDS.sepaReference,
      'The end-to-end id of the transfer, carried unchanged to the recipient (`NOTPROVIDED` when none was given).',
    ),
    ...changed.fields,
    amount: field(FIELDS.amount, 'Amount of the transfer (when returned: the amount returned).'),
    currency: FIELDS.currency,
    creditor: party('The recipient.', ['name', 'iban']),
    remittance_information: field(
      FIELDS.remittanceInformation,
      'Remittance information the transfer carries to the recipient (at most 140 characters).',
    ),
    requested_execution_date: field(FIELDS.date, 'The execution date the transfer was ordered for.'),
    settlement_date: field(FIELDS.date, 'The date it settled, when settled or returned.'),
  },
  ['transfer_id', 'end_to_end_id', 'status', 'amount', 'currency', 'creditor'],
  changed.conditions,
);

const ids = { transfer_id: 'tr_01J9ZK3Q', end_to_end_id: 'INV-2026-0042' };
const details = {
  amount: '1250.00',
  currency: 'EUR',
  creditor: { name: 'Erika Mustermann', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  remittance_information: 'Invoice 2026-0042',
  requested_execution_date: '2026-11-20',
};

/** The built-in declaration. */
export const CREDIT_TRANSFER_STATUS_CHANGE = builtInType({
  type: 'credit_transfer_status_change',
  description:
    "An outgoing credit transfer from the account changed status. Receivers keep their copy of the transfer current: `settled` is final (the money left), `rejected` and `returned` mean the money did not reach the recipient (it stays on or comes back to the account) and `reason_code` says why; a recipient account found closed is `rejected` or `returned` with `reason_code` `AC04`, which should stop further payments to that IBAN. A transfer may report several statuses; apply them in the account's `sequence` order.",
  schema,
  examples: [
    {
      name: 'accepted',
      summary: 'The bank accepted the transfer for execution.',
      payload: { ...ids, status: 'accepted', status_code: 'ACSP', ...details },
    },
    {
      name: 'settled',
      summary: 'The transfer settled: the money left the account.',
      payload: {
        ...ids,
        status: 'settled',
        status_code: 'ACSC',
        ...details,
        settlement_date: '2026-11-20',
      },
    },
    {
      name: 'rejected_closed_account',
      summary: "The recipient's bank rejected the instant transfer: the account is closed (AC04).",
      payload: {
        ...ids,
        status: 'rejected',
        status_code: 'RJCT',
        reason_code: 'AC04',
        reason_text: 'Account closed',
        ...details,
      },
    },
    {
      name: 'returned_closed_account',
      summary: "The recipient's bank returned the settled transfer: the account is closed (AC04).",
      payload: {
        ...ids,
        status: 'returned',
        reason_code: 'AC04',
        ...details,
        settlement_date: '2026-11-20',
      },
    },
    {
      name: 'rejected_insufficient_funds',
      summary: 'The bank rejected the transfer: not enough funds on the account (AM04).',
      payload: {
        transfer_id: 'tr_01J9ZM7C',
        end_to_end_id: 'NOTPROVIDED',
        status: 'rejected',
        status_code: 'RJCT',
        reason_code: 'AM04',
        amount: '80000.00',
        currency: 'EUR',
        creditor: { name: 'Jan de Vries', iban: 'NL91ABNA0417164300' },
      },
    },
  ],
});
