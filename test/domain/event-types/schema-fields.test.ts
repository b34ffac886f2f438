/** A payload schema read as the table of fields the docs and the portal show. */
import { describe, expect, it } from 'vitest';
import { CREDIT_RECEIVED } from '#domain/event-types/credit-received';
import { DIRECT_DEBIT_STATUS_CHANGE } from '#domain/event-types/direct-debit-status-change';
import { schemaConditions, schemaFields } from '#domain/event-types/schema-fields';

describe('schemaFields', () => {
  it('lists a built-in type: nested party fields, what is required, enums and shapes in words', () => {
    const fields = schemaFields(CREDIT_RECEIVED.versions[0]?.schema ?? {});
    expect(fields.map((field) => field.path)).toEqual([
      'entry_reference',
      'end_to_end_id',
      'amount',
      'currency',
      'debtor',
      'debtor.name',
      'debtor.iban',
      'debtor.bic',
      'remittance_information',
      'creditor_reference',
      'booking_date',
      'value_date',
    ]);
    expect(fields.find((field) => field.path === 'amount')).toEqual({
      path: 'amount',
      type: 'string',
      required: true,
      shape: 'a positive decimal amount',
      description: 'Amount credited.',
    });
    expect(fields.find((field) => field.path === 'debtor.iban')).toMatchObject({
      required: false,
      shape: 'an IBAN in capitals without spaces',
    });
    expect(fields.find((field) => field.path === 'entry_reference')).toMatchObject({
      shape: '1 to 35 characters',
    });
    const debits = schemaFields(DIRECT_DEBIT_STATUS_CHANGE.versions[0]?.schema ?? {});
    expect(debits.find((field) => field.path === 'sequence_type')).toMatchObject({
      values: ['FRST', 'RCUR', 'FNAL', 'OOFF'],
      shape: '',
    });
  });

  it("follows local $refs, array items and a type list, and an operator's bare pattern", () => {
    const schema = {
      type: 'object',
      required: ['lines'],
      properties: {
        lines: { type: 'array', items: { $ref: '#/$defs/line' } },
        note: { type: ['string', 'null'], pattern: '^[a-z]+$' },
        kind: { const: 'order' },
      },
      $defs: {
        line: { type: 'object', properties: { sku: { $ref: '#/$defs/sku' } }, required: ['sku'] },
        sku: { type: 'string', description: 'Article.' },
      },
    };
    expect(schemaFields(schema)).toEqual([
      { path: 'lines', type: 'array', required: true, shape: '', description: '' },
      { path: 'lines[].sku', type: 'string', required: true, shape: '', description: 'Article.' },
      { path: 'note', type: 'string or null', required: false, shape: 'pattern ^[a-z]+$', description: '' },
      { path: 'kind', type: '', required: false, values: ['order'], shape: '', description: '' },
    ]);
  });

  it('lists the conditions between fields by their descriptions', () => {
    expect(schemaConditions(DIRECT_DEBIT_STATUS_CHANGE.versions[0]?.schema ?? {})).toEqual([
      'A collected debit reports status_code ACSC or ACCC.',
      'A rejected debit reports status_code RJCT.',
      'A returned debit has no status_code: it carries only a reason_code.',
      'A refunded debit has no status_code: it carries only a reason_code.',
      'A debit that failed or was taken back says why in reason_code.',
      'A refund is MD06, an authorised collection claimed back within eight weeks, or MD01, a collection without a valid mandate claimed back within 13 months.',
    ]);
  });
});
