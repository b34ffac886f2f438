/**
 * `credit_received`: money arrived on the account, as the bank notifies a booked credit entry (camt.054).
 * The type a receiver marks an order paid with.
 */
import { FIELDS, field, party, payloadSchema, text } from './conventions';
import { builtInType } from './model';

const schema = payloadSchema(
  'Credit received on the account',
  {
    entry_reference: text(
      35,
      "The bank's reference of the booked entry, unique per account: a receiver applies each entry once by it.",
      '2026112100042',
    ),
    end_to_end_id: field(
      FIELDS.sepaReference,
      "The end-to-end id the payer gave (`NOTPROVIDED` when none): often the payer's own reference of the payment.",
    ),
    amount: field(FIELDS.amount, 'Amount credited.'),
    currency: FIELDS.currency,
    debtor: party('The payer.', ['name']),
    remittance_information: FIELDS.remittanceInformation,
    creditor_reference: field(
      FIELDS.creditorReference,
      'Structured reference the payer quoted (ISO 11649), when the payment carried one instead of free text: the surest match to an invoice.',
    ),
    booking_date: field(FIELDS.date, 'The date the bank booked the credit.'),
    value_date: field(FIELDS.date, 'The date from which the money counts (interest, availability).'),
  },
  ['entry_reference', 'end_to_end_id', 'amount', 'currency', 'debtor', 'booking_date', 'value_date'],
);

/** The built-in declaration. */
export const CREDIT_RECEIVED = builtInType({
  type: 'credit_received',
  description:
    'Money arrived on the account: the bank booked a credit entry (an incoming transfer). Receivers mark what it pays as paid, matching `creditor_reference` or `remittance_information` to their invoices and `amount` with `currency` to what was due, and apply each `entry_reference` once. A credit is final once booked; money sent back later is a new outgoing transfer.',
  schema,
  examples: [
    {
      name: 'invoice_paid',
      summary: 'A customer paid an invoice, quoting it in the remittance information.',
      payload: {
        entry_reference: '2026112100042',
        end_to_end_id: 'ORDER-77812',
        amount: '249.90',
        currency: 'EUR',
        debtor: { name: 'Jean Dupont', iban: 'FR1420041010050500013M02606', bic: 'PSSTFRPPXXX' },
        remittance_information: 'Invoice 2026-0042, order 77812',
        booking_date: '2026-11-21',
        value_date: '2026-11-21',
      },
    },
    {
      name: 'structured_reference',
      summary: "A payment quoting a structured creditor reference, without the payer's IBAN.",
      payload: {
        entry_reference: '2026112100043',
        end_to_end_id: 'NOTPROVIDED',
        amount: '1200',
        currency: 'EUR',
        debtor: { name: 'Muster GmbH' },
        creditor_reference: 'RF18539007547034',
        booking_date: '2026-11-21',
        value_date: '2026-11-23',
      },
    },
  ],
});
