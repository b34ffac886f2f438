/**
 * Payloads checked against the built-in types: every mutation of a valid example that breaks the contract is
 * refused, at the JSON pointer of the field, with a reason a publisher can act on and never the value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { AMOUNT_PATTERN, CURRENCY_PATTERN } from '#domain/event-types/conventions';
import { CREDIT_TRANSFER_STATUS_CHANGE } from '#domain/event-types/credit-transfer-status-change';
import { DIRECT_DEBIT_STATUS_CHANGE } from '#domain/event-types/direct-debit-status-change';
import type { EventTypeDefinition, JsonObject } from '#domain/event-types/model';
import { type CompiledEventType, compileEventType } from '#domain/event-types/payload-validation';
import { checkVersion } from '../../support/payload-check';

const transfers = compileEventType(CREDIT_TRANSFER_STATUS_CHANGE);
const debits = compileEventType(DIRECT_DEBIT_STATUS_CHANGE);
const samples = BUILT_IN_EVENT_TYPES.flatMap((definition) => {
  const compiled = compileEventType(definition);
  return definition.versions.flatMap((version) =>
    version.examples.map((example) => ({
      compiled,
      schema: version.schema,
      payload: example.payload,
      // A counterexample names its sample instead of printing the compiled schemas.
      [fc.toStringMethod]: () => `${definition.type} v${version.version} ${example.name}`,
    })),
  );
});
const sample = fc.constantFrom(...samples);

/** The first example of a type with `changes` applied (`undefined` removes a field). */
function example(
  definition: EventTypeDefinition,
  name: string,
  changes: Record<string, unknown> = {},
): JsonObject {
  const found = definition.versions[0]?.examples.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no example ${name}`);
  const payload: Record<string, unknown> = { ...found.payload, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete payload[key];
  return payload;
}

/** The violations of a payload that must be refused. */
function violations(entry: CompiledEventType, payload: unknown) {
  const check = checkVersion(entry, undefined, payload);
  if (check.ok) throw new Error(`expected a refusal of ${JSON.stringify(payload)}`);
  return check.violations;
}

/** A JSON value of another type than `type`. */
function otherThan(type: 'string' | 'object'): fc.Arbitrary<unknown> {
  const values = [
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  ];
  const list = fc.array(fc.string(), { maxLength: 3 });
  return type === 'string'
    ? fc.oneof(...values, list, fc.dictionary(fc.string(), fc.string()))
    : fc.oneof(...values, list, fc.string());
}

const AMOUNT = new RegExp(AMOUNT_PATTERN, 'u');
const CURRENCY = new RegExp(CURRENCY_PATTERN, 'u');
/** A character no reason contains, to show that reasons never quote the payload. */
const MARK = 'Ω';

describe('checking payloads against the built-in types', () => {
  it('refuses a payload missing any required field, naming its pointer', () => {
    const missing = sample.chain((s) =>
      fc.tuple(fc.constant(s), fc.constantFrom(...(s.schema.required as string[]))),
    );
    fc.assert(
      fc.property(missing, ([s, field]) => {
        const payload = { ...s.payload };
        delete payload[field];
        expect(violations(s.compiled, payload)).toContainEqual({
          pointer: `/${field}`,
          reason: 'is required',
        });
      }),
    );
  });

  it('refuses a missing field inside a party, naming its nested pointer', () => {
    const payload = example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', {
      creditor: { name: 'Erika Mustermann' },
    });
    expect(violations(transfers, payload)).toEqual([{ pointer: '/creditor/iban', reason: 'is required' }]);
  });

  it('refuses a value of the wrong type in any field', () => {
    const field = sample.chain((s) =>
      fc.constantFrom(...Object.keys(s.payload)).chain((name) => {
        const type = typeof s.payload[name] === 'string' ? 'string' : 'object';
        return fc.tuple(fc.constant(s), fc.constant(name), fc.constant(type), otherThan(type));
      }),
    );
    fc.assert(
      fc.property(field, ([s, name, type, value]) => {
        const found = violations(s.compiled, { ...s.payload, [name]: value });
        expect(found).toContainEqual({
          pointer: `/${name}`,
          reason: expect.stringMatching(`^must be an? ${type}`),
        });
      }),
    );
  });

  it('refuses any amount that is not a positive decimal string, with the reason in words', () => {
    const bad = fc.oneof(
      fc.string().filter((text) => !AMOUNT.test(text)),
      fc.constantFrom(
        '0',
        '0.00',
        '12,50',
        '-5.00',
        '+5.00',
        '1e3',
        '01.00',
        '12.',
        '.5',
        ' 12.50',
        '12.123456',
      ),
      fc.constant('12345678901234.00'),
    );
    fc.assert(
      fc.property(sample, bad, (s, amount) => {
        expect(violations(s.compiled, { ...s.payload, amount })).toEqual([
          { pointer: '/amount', reason: 'must match the pattern of a positive decimal amount like 12.50' },
        ]);
      }),
    );
  });

  it('accepts every positive decimal amount of up to 13 digits and 5 decimals', () => {
    const whole = fc.bigInt(1n, 10n ** 13n - 1n).map(String);
    const decimals = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 5 });
    const amount = fc.oneof(
      whole,
      fc.tuple(whole, decimals).map(([a, b]) => `${a}.${b}`),
      decimals.filter((digits) => /[1-9]/.test(digits)).map((digits) => `0.${digits}`),
    );
    fc.assert(
      fc.property(sample, amount, (s, value) => {
        expect(checkVersion(s.compiled, 1, { ...s.payload, amount: value }).ok).toBe(true);
      }),
    );
  });

  it('refuses a currency that is not three capitals, without quoting it', () => {
    const bad = fc.string().map((text) => `${MARK}${text}`);
    fc.assert(
      fc.property(sample, bad, (s, currency) => {
        expect(CURRENCY.test(currency)).toBe(false);
        const found = violations(s.compiled, { ...s.payload, currency });
        expect(found).toEqual([
          { pointer: '/currency', reason: 'must match the pattern of an ISO 4217 currency code like EUR' },
        ]);
      }),
    );
  });

  it('refuses an unknown status code, a malformed reason code and a malformed IBAN', () => {
    const notStatus = fc
      .string()
      .filter((text) => !/^(ACTC|ACCP|ACFC|ACWC|ACSP|PDNG|ACSC|ACCC|RJCT|CANC)$/.test(text));
    fc.assert(
      fc.property(notStatus, (code) => {
        const found = violations(
          transfers,
          example(CREDIT_TRANSFER_STATUS_CHANGE, 'accepted', { status_code: code }),
        );
        expect(found[0]).toEqual({
          pointer: '/status_code',
          reason:
            'must be one of ACTC, ACCP, ACFC, ACWC, ACSP (an accepted transfer reports status_code ACTC, ACCP, ACFC, ACWC or ACSP)',
        });
      }),
    );
    const notReason = fc.string().filter((text) => !/^[A-Z0-9]{4}$/.test(text));
    fc.assert(
      fc.property(notReason, (code) => {
        const found = violations(
          debits,
          example(DIRECT_DEBIT_STATUS_CHANGE, 'returned_insufficient_funds', { reason_code: code }),
        );
        expect(found).toContainEqual({
          pointer: '/reason_code',
          reason: 'must match the pattern of a 4-character ISO 20022 reason code like AC04',
        });
      }),
    );
    const payload = example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', {
      creditor: { name: 'E', iban: 'de89 3704 0044' },
    });
    expect(violations(transfers, payload)).toEqual([
      {
        pointer: '/creditor/iban',
        reason: 'must match the pattern of an IBAN in capitals without spaces like DE89370400440532013000',
      },
    ]);
  });

  it('refuses a field the type does not declare, listing the fields it has', () => {
    const names = sample.chain((s) =>
      fc.tuple(
        fc.constant(s),
        fc.string({ minLength: 1 }).filter((name) => !(name in (s.schema.properties as object))),
      ),
    );
    fc.assert(
      fc.property(names, ([s, name]) => {
        const [found] = violations(s.compiled, { ...s.payload, [name]: 'x' });
        expect(found?.pointer).toBe(`/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
        expect(found?.reason).toMatch(/^is not a field of this object/);
      }),
    );
    expect(
      violations(
        transfers,
        example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', { remitance_information: 'x' }),
      ),
    ).toEqual([
      {
        pointer: '/remitance_information',
        reason:
          'is not a field of this object (its fields: transfer_id, end_to_end_id, status, status_code, reason_code, reason_text, amount, currency, creditor, remittance_information, requested_execution_date, settlement_date)',
      },
    ]);
    const typo = example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', {
      creditor: { name: 'E', iban: 'DE89370400440532013000', bci: 'X' },
    });
    expect(violations(transfers, typo)).toEqual([
      { pointer: '/creditor/bci', reason: 'is not a field of this object (its fields: name, iban, bic)' },
    ]);
  });

  it('applies the conditions between status, status code and reason, quoting them', () => {
    expect(
      violations(
        transfers,
        example(CREDIT_TRANSFER_STATUS_CHANGE, 'rejected_closed_account', { reason_code: undefined }),
      ),
    ).toEqual([
      {
        pointer: '/reason_code',
        reason: 'is required (a rejected or returned transfer says why in reason_code)',
      },
    ]);
    expect(
      violations(transfers, example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', { status_code: 'RJCT' })),
    ).toEqual([
      {
        pointer: '/status_code',
        reason: 'must be one of ACSC, ACCC (a settled transfer reports status_code ACSC or ACCC)',
      },
    ]);
    expect(
      violations(
        transfers,
        example(CREDIT_TRANSFER_STATUS_CHANGE, 'returned_closed_account', { status_code: 'RJCT' }),
      ),
    ).toEqual([
      {
        pointer: '/status_code',
        reason: 'is not allowed here (a returned transfer has no status_code: it carries only a reason_code)',
      },
    ]);
    expect(
      violations(
        transfers,
        example(CREDIT_TRANSFER_STATUS_CHANGE, 'rejected_closed_account', { status_code: undefined }),
      ),
    ).toEqual([
      { pointer: '/status_code', reason: 'is required (a rejected transfer reports status_code RJCT)' },
    ]);
    expect(
      violations(debits, example(DIRECT_DEBIT_STATUS_CHANGE, 'refunded', { reason_code: 'AM04' })),
    ).toEqual([
      {
        pointer: '/reason_code',
        reason:
          'must be one of MD06, MD01 (a refund is MD06, an authorised collection claimed back within eight weeks, or MD01, a collection without a valid mandate claimed back within 13 months)',
      },
    ]);
    expect(
      violations(debits, example(DIRECT_DEBIT_STATUS_CHANGE, 'collected', { status_code: 'RJCT' })),
    ).toEqual([
      {
        pointer: '/status_code',
        reason: 'must be one of ACSC, ACCC (a collected debit reports status_code ACSC or ACCC)',
      },
    ]);
  });

  it('refuses a date that does not exist, an amount sent as a number, and says what it got', () => {
    expect(
      violations(
        transfers,
        example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', { settlement_date: '2026-02-29' }),
      ),
    ).toEqual([
      { pointer: '/settlement_date', reason: 'must be a date that exists in the calendar (YYYY-MM-DD)' },
    ]);
    expect(
      checkVersion(
        transfers,
        1,
        example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', { settlement_date: '2028-02-29' }),
      ).ok,
    ).toBe(true);
    expect(
      violations(transfers, example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled', { amount: 12.5 })),
    ).toEqual([
      {
        pointer: '/amount',
        reason: 'must be a string (a positive decimal amount like 12.50), not a number with a fraction',
      },
    ]);
  });

  it('answers at most ten violations and counts the rest', () => {
    const unknown = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`extra_${index}`, index]));
    const check = checkVersion(transfers, undefined, unknown);
    expect(check).toMatchObject({ ok: false, version: 1, omitted: 8 });
    expect(check.ok === false && check.violations).toHaveLength(10);
  });

  it('answers a field name that is not Unicode text as a violation, not a crash', () => {
    expect(
      violations(transfers, { ...example(CREDIT_TRANSFER_STATUS_CHANGE, 'settled'), '\uD800': 1 }),
    ).toEqual([
      { pointer: '', reason: 'has a field name that is not valid Unicode text (a lone surrogate)' },
    ]);
  });
});
