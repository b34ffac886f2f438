/**
 * `matches` on a table of the language's cases: every matcher, lists and nested objects in payloads, null,
 * absent fields, decimal strings in numeric ranges. Generated filters and payloads, and the work of an
 * evaluation, are `filter-match-properties.test.ts`'s.
 */
import { describe, expect, it } from 'vitest';
import { matches } from '#domain/subscriptions/filter-match';
import { accepted } from './accepted-filter';

const transfer = {
  status: 'returned',
  reason_code: 'AM04',
  amount: '1250.00',
  currency: 'EUR',
  creditor: { name: 'Jan de Vries', iban: 'NL91ABNA0417164300' },
  remittance_information: '',
  note: null,
  count: 3,
  urgent: false,
};

type Case = readonly [string, unknown, unknown, boolean];

const exact: Case[] = [
  ['a string, character for character', { status: ['returned'] }, transfer, true],
  ['a string in another case', { status: ['RETURNED'] }, transfer, false],
  ['any string of the list', { status: ['rejected', 'returned'] }, transfer, true],
  ['none of the list', { status: ['rejected', 'settled'] }, transfer, false],
  ['every field of the pattern', { status: ['returned'], reason_code: ['AM04'] }, transfer, true],
  ['one field of the pattern failing', { status: ['returned'], reason_code: ['AC04'] }, transfer, false],
  ['a field the payload lacks', { settlement_date: ['2026-11-20'] }, transfer, false],
  ['a number as a number', { count: [3.0] }, transfer, true],
  ['a number against the string writing it', { count: ['3'] }, transfer, false],
  ['a decimal string against a number', { amount: [1250] }, transfer, false],
  ['false', { urgent: [false] }, transfer, true],
  ['false against null', { note: [false] }, transfer, false],
  ['null', { note: [null] }, transfer, true],
  ['null against an absent field', { absent: [null] }, transfer, false],
  ['the empty string', { remittance_information: [''] }, transfer, true],
  ['the empty string against null', { note: [''] }, transfer, false],
  ['a value against an object', { creditor: ['Jan de Vries'] }, transfer, false],
];

const strings: Case[] = [
  ['a prefix', { creditor: { iban: [{ prefix: 'NL91ABNA' }] } }, transfer, true],
  ['another prefix', { creditor: { iban: [{ prefix: 'DE' }] } }, transfer, false],
  ['a prefix against a number', { count: [{ prefix: '3' }] }, transfer, false],
  ['a suffix', { creditor: { iban: [{ suffix: '4300' }] } }, transfer, true],
  ['another suffix', { creditor: { iban: [{ suffix: '4301' }] } }, transfer, false],
];

const anythingBut: Case[] = [
  ['anything but another string', { status: [{ 'anything-but': 'settled' }] }, transfer, true],
  ['anything but the value', { status: [{ 'anything-but': 'returned' }] }, transfer, false],
  [
    'anything but a list holding the value',
    { status: [{ 'anything-but': ['settled', 'returned'] }] },
    transfer,
    false,
  ],
  ['anything but a list without it', { status: [{ 'anything-but': ['settled', 3] }] }, transfer, true],
  ['anything but a number, against the number', { count: [{ 'anything-but': [3] }] }, transfer, false],
  ['anything but a string, against null', { note: [{ 'anything-but': 'x' }] }, transfer, true],
  ['anything but, against an absent field', { absent: [{ 'anything-but': 'x' }] }, transfer, false],
  ['anything but, against an object', { creditor: [{ 'anything-but': 'x' }] }, transfer, false],
  [
    'anything but a prefix the string has',
    { creditor: { iban: [{ 'anything-but': { prefix: 'NL' } }] } },
    transfer,
    false,
  ],
  [
    'anything but a prefix it lacks',
    { creditor: { iban: [{ 'anything-but': { prefix: 'DE' } }] } },
    transfer,
    true,
  ],
  [
    'anything but a prefix, against a number',
    { count: [{ 'anything-but': { prefix: 'x' } }] },
    transfer,
    false,
  ],
  [
    'anything but a suffix it has',
    { creditor: { iban: [{ 'anything-but': { suffix: '300' } }] } },
    transfer,
    false,
  ],
];

const numeric: Case[] = [
  ['a decimal string above a bound', { amount: [{ numeric: ['>', '1000.00'] }] }, transfer, true],
  ['a decimal string not above itself', { amount: [{ numeric: ['>', '1250'] }] }, transfer, false],
  [
    'a decimal string equal to a number written otherwise',
    { amount: [{ numeric: ['=', 1250] }] },
    transfer,
    true,
  ],
  ['"0.10" equal to 0.1', { a: [{ numeric: ['=', 0.1] }] }, { a: '0.10' }, true],
  ['0.1 equal to "0.10"', { a: [{ numeric: ['=', '0.10'] }] }, { a: 0.1 }, true],
  ['a cent above a trillion', { a: [{ numeric: ['>', '1000000000000'] }] }, { a: '1000000000000.01' }, true],
  [
    'a cent above a quadrillion, which a float would lose',
    { a: [{ numeric: ['>', '1000000000000000'] }] },
    { a: '1000000000000000.01' },
    true,
  ],
  [
    "digits past a float's precision",
    { a: [{ numeric: ['=', '0.3'] }] },
    { a: '0.30000000000000001' },
    false,
  ],
  ['0.1 + 0.2 as JSON writes it, not 0.3', { a: [{ numeric: ['=', '0.3'] }] }, { a: 0.1 + 0.2 }, false],
  ['a negative amount', { a: [{ numeric: ['<', 0] }] }, { a: '-0.01' }, true],
  ['inside a range', { a: [{ numeric: ['>', 0, '<=', '100'] }] }, { a: '100.00' }, true],
  ['past a range', { a: [{ numeric: ['>', 0, '<=', '100'] }] }, { a: '100.001' }, false],
  ['a range written upper bound first', { a: [{ numeric: ['<=', '100', '>', 0] }] }, { a: '0' }, false],
  ['a decimal comma', { a: [{ numeric: ['>', 0] }] }, { a: '12,50' }, false],
  ['an exponent in a string', { a: [{ numeric: ['>', 0] }] }, { a: '1e3' }, false],
  ['a string that is no number', { a: [{ numeric: ['>', 0] }] }, { a: 'EUR' }, false],
  ['true', { a: [{ numeric: ['>', 0] }] }, { a: true }, false],
  ['an absent field', { a: [{ numeric: ['>', 0] }] }, {}, false],
];

const exists: Case[] = [
  ['a field holding a value exists', { status: [{ exists: true }] }, transfer, true],
  ['a field holding null exists', { note: [{ exists: true }] }, transfer, true],
  ['a field holding an object exists', { creditor: [{ exists: true }] }, transfer, true],
  ['a field holding an empty list exists', { tags: [{ exists: true }] }, { tags: [] }, true],
  ['an absent field does not exist', { settlement_date: [{ exists: true }] }, transfer, false],
  ['exists false on an absent field', { settlement_date: [{ exists: false }] }, transfer, true],
  ['exists false on null', { note: [{ exists: false }] }, transfer, false],
  ['exists false on an empty list', { tags: [{ exists: false }] }, { tags: [] }, false],
  ['a value or absence: the value', { reason_code: ['AM04', { exists: false }] }, transfer, true],
  ['a value or absence: absent', { reason_code: ['AM04', { exists: false }] }, { status: 'settled' }, true],
  ['a value or absence: another value', { reason_code: ['AC04', { exists: false }] }, transfer, false],
  ['a field undefined in JavaScript is absent', { a: [{ exists: false }] }, { a: undefined }, true],
  ['an inherited property is no field', { constructor: [{ exists: true }] }, {}, false],
  ['an inherited property is absent', { toString: [{ exists: false }] }, {}, true],
];

const lists: Case[] = [
  ['a list holding the value', { tags: ['b'] }, { tags: ['a', 'b'] }, true],
  ['a list without it', { tags: ['c'] }, { tags: ['a', 'b'] }, false],
  ['an empty list', { tags: ['a'] }, { tags: [] }, false],
  ['lists inside a list, opened', { tags: ['b'] }, { tags: [['a'], [['b']]] }, true],
  [
    'a list of amounts, one in range',
    { amounts: [{ numeric: ['>', 1000] }] },
    { amounts: ['5', '2000.50'] },
    true,
  ],
  [
    'a list of amounts, none in range',
    { amounts: [{ numeric: ['>', 1000] }] },
    { amounts: ['5', '1000'] },
    false,
  ],
  ['anything but, one element differing', { tags: [{ 'anything-but': 'a' }] }, { tags: ['a', 'b'] }, true],
  ['anything but, every element refused', { tags: [{ 'anything-but': 'a' }] }, { tags: ['a', 'a'] }, false],
  ['a prefix against a list', { ibans: [{ prefix: 'NL' }] }, { ibans: ['DE89', 'NL91'] }, true],
  [
    'one element with both fields',
    { items: { iban: [{ prefix: 'NL' }], amount: [{ numeric: ['>', 1000] }] } },
    {
      items: [
        { iban: 'DE1', amount: '5' },
        { iban: 'NL1', amount: '5000' },
      ],
    },
    true,
  ],
  [
    'the fields only in different elements',
    { items: { iban: [{ prefix: 'DE' }], amount: [{ numeric: ['>', 1000] }] } },
    {
      items: [
        { iban: 'DE1', amount: '5' },
        { iban: 'NL1', amount: '5000' },
      ],
    },
    false,
  ],
  [
    'objects in nested lists',
    { items: { iban: ['NL1'] } },
    { items: [[{ iban: 'DE1' }], [[{ iban: 'NL1' }]]] },
    true,
  ],
];

const objects: Case[] = [
  [
    'a pattern against a string',
    { creditor: { iban: ['NL91ABNA0417164300'] } },
    { creditor: 'NL91ABNA0417164300' },
    false,
  ],
  ['a field inside lacking', { creditor: { bic: [{ exists: false }] } }, transfer, true],
  ['a field inside present', { creditor: { name: [{ exists: false }] } }, transfer, false],
  ['a field inside an absent object', { debtor: { iban: [{ exists: false }] } }, transfer, true],
  ['a field inside null', { note: { iban: [{ exists: false }] } }, transfer, true],
  ['a field inside an empty list', { debtor: { iban: [{ exists: false }] } }, { debtor: [] }, true],
  [
    'a field inside, holding null',
    { debtor: { iban: [{ exists: false }] } },
    { debtor: { iban: null } },
    false,
  ],
  ['a payload that is no object', { a: [{ exists: false }] }, 'text', true],
  ['a payload that is null', { a: [1] }, null, false],
  ['three levels deep', { a: { b: { c: [1] } } }, { a: { b: { c: 1, d: 2 } } }, true],
];

const or: Case[] = [
  ['$or, the second branch', { $or: [{ a: [1] }, { b: [2] }] }, { b: 2 }, true],
  ['$or, no branch', { $or: [{ a: [1] }, { b: [2] }] }, { c: 3 }, false],
  ['$or beside a field, both holding', { c: [3], $or: [{ a: [1] }, { b: [2] }] }, { b: 2, c: 3 }, true],
  ['$or beside a field that fails', { c: [4], $or: [{ a: [1] }, { b: [2] }] }, { b: 2, c: 3 }, false],
  [
    '$or inside an element of a list',
    { items: { $or: [{ a: [1] }, { b: [3] }] } },
    { items: [{ b: 2 }, { a: 1 }] },
    true,
  ],
  ['$or, nested', { $or: [{ $or: [{ a: [1] }, { b: [2] }] }, { c: [3] }] }, { b: 2 }, true],
  [
    '$or, a branch of nested objects',
    { $or: [{ x: { y: [1] } }, { c: [3] }] },
    { x: [{ y: 0 }, { y: 1 }] },
    true,
  ],
];

describe('matches', () => {
  describe.each([
    ['exact values', exact],
    ['prefix and suffix', strings],
    ['anything-but', anythingBut],
    ['numeric ranges, exactly on decimals', numeric],
    ['exists', exists],
    ['lists in the payload', lists],
    ['nested objects', objects],
    ['$or', or],
  ])('%s', (_, cases) => {
    it.each(cases)('%s', (_, filter, payload, expected) => {
      expect(matches(accepted(filter), payload)).toBe(expected);
    });
  });

  it("reads a field named __proto__ as the payload's own field", () => {
    const filter = accepted(JSON.parse('{"__proto__": {"a": [1]}}'));
    expect(matches(filter, JSON.parse('{"__proto__": {"a": 1}}'))).toBe(true);
    expect(matches(filter, {})).toBe(false);
  });
});
