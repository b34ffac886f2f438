/**
 * `direct_debit_status_change`: the outcome of a direct debit the account collects, as the bank reports
 * it (status reports, returns and refunds: SEPA's R-transactions). A failed recurring debit is this type
 * with `sequence_type` `RCUR` and status `rejected` or `returned`.
 */
import {
  FIELDS,
  field,
  oneOf,
  party,
  payloadSchema,
  type StatusCodes,
  statusChange,
  whenStatus,
} from './conventions';
import { codesOf, SEQUENCE_TYPES } from './iso20022';
import { builtInType } from './model';

/**
 * The outcomes and the ISO 20022 status codes each is reported with; a return or refund comes after
 * settlement as a message of its own, with only a reason.
 */
export const DIRECT_DEBIT_STATUS_CODES = {
  collected: ['ACSC', 'ACCC'],
  rejected: ['RJCT'],
  returned: [],
  refunded: [],
} as const satisfies StatusCodes;

/** The reasons a refund is reported with: an authorised collection, or one without a valid mandate. */
export const REFUND_REASON_CODES = ['MD06', 'MD01'] as const;

const changed = statusChange(DIRECT_DEBIT_STATUS_CODES, {
  noun: 'debit',
  status:
    "The outcome: `collected` (the money is on the account), `rejected` before settlement, `returned` by the debtor's bank after settlement (the money is taken back), or `refunded` to the debtor on their claim after settlement.",
  statusCode:
    'ISO 20022 transaction status the bank reported: `ACSC` or `ACCC` when collected, `RJCT` when rejected; absent when returned or refunded.',
  reasonCode:
    'ISO 20022 reason the bank gave, e.g. `AM04` insufficient funds, `AC04` closed account, `MS02` refused by the debtor, `MD01` no valid mandate, `MD06` refund request.',
  reasonRequired: {
    statuses: ['rejected', 'returned', 'refunded'],
    description: 'A debit that failed or was taken back says why in reason_code.',
  },
});

const schema = payloadSchema(
  'Direct debit outcome',
  {
    collection_id: field(
      FIELDS.gatewayId,
      "The gateway's id of the collection, as given when it was ordered.",
    ),
    end_to_end_id: field(FIELDS.sepaReference, 'The end-to-end id of the collection.'),
    mandate_id: field(
      FIELDS.sepaReference,
      'The mandate the debit was collected under (SEPA: its unique mandate reference).',
    ),
    sequence_type: oneOf(
      codesOf(SEQUENCE_TYPES),
      'Where the debit sits in its mandate (SequenceType3Code): `FRST` first, `RCUR` recurring, `FNAL` final, `OOFF` one-off.',
    ),
    ...changed.fields,
    amount: field(
      FIELDS.amount,
      'Amount of the collection (when returned or refunded: the amount taken back).',
    ),
    currency: FIELDS.currency,
    debtor: party('The payer whose account was debited.', ['name', 'iban']),
    collection_date: field(FIELDS.date, 'The due date of the collection.'),
    remittance_information: field(
      FIELDS.remittanceInformation,
      'Remittance information the collection carried to the debtor (at most 140 characters).',
    ),
  },
  [
    'collection_id',
    'end_to_end_id',
    'mandate_id',
    'sequence_type',
    'status',
    'amount',
    'currency',
    'debtor',
    'collection_date',
  ],
  [
    ...changed.conditions,
    whenStatus(
      ['refunded'],
      'A refund is MD06, an authorised collection claimed back within eight weeks, or MD01, a collection without a valid mandate claimed back within 13 months.',
      { properties: { reason_code: { enum: [...REFUND_REASON_CODES] } } },
    ),
  ],
);

const ids = {
  collection_id: 'dd_01J9ZQ2B',
  end_to_end_id: 'SUB-2026-11-0815',
  mandate_id: 'MANDATE-0815',
  sequence_type: 'RCUR',
};
const details = {
  amount: '39.90',
  currency: 'EUR',
  debtor: { name: 'Maria Rossi', iban: 'IT60X0542811101000000123456' },
  collection_date: '2026-11-02',
  remittance_information: 'Subscription November 2026',
};

/** The built-in declaration. */
export const DIRECT_DEBIT_STATUS_CHANGE = builtInType({
  type: 'direct_debit_status_change',
  description:
    "The outcome of a direct debit the account collects. `collected` means the money is on the account; `rejected` (before settlement) and `returned` (after it, the money is taken back) mean the debtor did not pay, with `reason_code` saying why (`AM04` insufficient funds, `AC04` closed account, `MS02` refused by the debtor); `refunded` means the debtor claimed the money back (`MD06`, or `MD01` when the mandate is disputed). A failed recurring debit (`sequence_type` `RCUR`, or `FRST`/`FNAL`) is what accounting should hear about: the subscription is unpaid. A debit collected earlier may later be returned or refunded; apply events in the account's `sequence` order.",
  schema,
  examples: [
    {
      name: 'collected',
      summary: 'A recurring debit was collected.',
      payload: { ...ids, status: 'collected', status_code: 'ACSC', ...details },
    },
    {
      name: 'returned_insufficient_funds',
      summary: "A recurring debit was returned by the debtor's bank: insufficient funds (AM04).",
      payload: { ...ids, status: 'returned', reason_code: 'AM04', ...details },
    },
    {
      name: 'refunded',
      summary: 'The debtor claimed a refund of an authorised debit (MD06).',
      payload: {
        ...ids,
        status: 'refunded',
        reason_code: 'MD06',
        reason_text: 'Refund request by end customer',
        ...details,
      },
    },
    {
      name: 'rejected_closed_account',
      summary: "A first debit was rejected: the debtor's account is closed (AC04).",
      payload: {
        collection_id: 'dd_01J9ZR8K',
        end_to_end_id: 'SUB-2026-11-0977',
        mandate_id: 'MANDATE-0977',
        sequence_type: 'FRST',
        status: 'rejected',
        status_code: 'RJCT',
        reason_code: 'AC04',
        amount: '39.90',
        currency: 'EUR',
        debtor: { name: 'Peter Janssens', iban: 'BE68539007547034', bic: 'GKCCBEBB' },
        collection_date: '2026-11-02',
      },
    },
  ],
});
