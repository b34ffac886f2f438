/**
 * The field shapes every built-in payload shares, declared once: amounts, currencies, account and bank
 * identifiers, references, dates and times. Each carries a `title` written to finish the sentence "must
 * match the pattern of …", so a refused payload is answered in a publisher's words, and an example.
 *
 * Patterns keep to the regular-expression subset JSON Schema recommends for interoperability (no
 * lookaround, no non-capturing groups), so receivers' validators in any language read them alike.
 */
import { codesOf, TRANSACTION_STATUS_CODES } from './iso20022';
import type { JsonSchemaObject } from './model';

/** The dialect every payload schema declares. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A positive amount as a decimal string: at most 13 digits before the dot (no leading zero) and 1 to 5
 * after it (ISO 20022 amounts have at most 18 digits, 5 of them decimals), never zero. Strings, not
 * numbers: a binary float cannot hold 0.10 exactly, and a receiver should parse it into a decimal type.
 */
export const AMOUNT_PATTERN =
  '^([1-9][0-9]{0,12}(\\.[0-9]{1,5})?|0\\.([1-9][0-9]{0,4}|0[1-9][0-9]{0,3}|00[1-9][0-9]{0,2}|000[1-9][0-9]?|0000[1-9]))$';

/** An ISO 4217 alphabetic currency code. Its existence is not checked: new codes need no release. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

/** An IBAN's shape (ISO 13616): upper case, no spaces, 15 to 34 characters. Check digits are not checked. */
export const IBAN_PATTERN = '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$';

/** A BIC (ISO 9362): bank, country, location, and an optional branch; 8 or 11 characters. */
export const BIC_PATTERN = '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$';

/** A calendar date `YYYY-MM-DD`; the `date` format also refuses days a month lacks. */
export const DATE_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';

/** A time `YYYY-MM-DD HH:MM:SS` in UTC, the API's one rendering of a timestamp (as `triggered_at`). */
export const TIMESTAMP_PATTERN =
  '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';

/**
 * A SEPA reference (end-to-end id, mandate id): 1 to 35 characters of the Latin set every SEPA bank
 * carries unchanged.
 */
export const SEPA_REFERENCE_PATTERN = "^[A-Za-z0-9/?:().,'+ -]{1,35}$";

/** A gateway's own identifier of a transfer or collection. */
export const GATEWAY_ID_PATTERN = '^[A-Za-z0-9._:-]{1,64}$';

/** A structured creditor reference (ISO 11649, `RF` and two check digits); the check digits are not checked. */
export const CREDITOR_REFERENCE_PATTERN = '^RF[0-9]{2}[A-Z0-9]{1,21}$';

/** An ISO 20022 reason code's shape. */
export const REASON_CODE_PATTERN = '^[A-Z0-9]{4}$';

/** A pattern-checked string field. */
function patterned(pattern: string, title: string, description: string, example: string): JsonSchemaObject {
  return { type: 'string', pattern, title, description, examples: [example] };
}

/** A free-text field of at most `maxLength` characters. */
export function text(maxLength: number, description: string, example: string): JsonSchemaObject {
  return { type: 'string', minLength: 1, maxLength, description, examples: [example] };
}

/** The shared shapes. */
export const FIELDS = {
  amount: patterned(
    AMOUNT_PATTERN,
    'a positive decimal amount',
    'Digits, then optionally a dot and 1 to 5 decimals (as many as the currency has: 2 for EUR); greater than zero; no sign, exponent or separators.',
    '12.50',
  ),
  currency: patterned(CURRENCY_PATTERN, 'an ISO 4217 currency code', 'ISO 4217 currency code.', 'EUR'),
  iban: patterned(
    IBAN_PATTERN,
    'an IBAN in capitals without spaces',
    'IBAN, capitals, no spaces.',
    'DE89370400440532013000',
  ),
  bic: patterned(
    BIC_PATTERN,
    'a BIC of 8 or 11 characters',
    'BIC of the bank, 8 or 11 characters.',
    'COBADEFFXXX',
  ),
  date: {
    ...patterned(DATE_PATTERN, 'a calendar date YYYY-MM-DD', 'Calendar date.', '2026-11-21'),
    format: 'date',
  },
  timestamp: patterned(
    TIMESTAMP_PATTERN,
    'a UTC time YYYY-MM-DD HH:MM:SS',
    'Time in UTC.',
    '2026-11-21 14:03:07',
  ),
  sepaReference: patterned(
    SEPA_REFERENCE_PATTERN,
    "a reference of 1 to 35 letters, digits, spaces or / - ? : ( ) . , ' +",
    'Reference of 1 to 35 characters.',
    'INV-2026-0042',
  ),
  gatewayId: patterned(
    GATEWAY_ID_PATTERN,
    'an identifier of 1 to 64 letters, digits, . _ : or -',
    'Identifier.',
    'tr_01J9ZK3Q',
  ),
  creditorReference: patterned(
    CREDITOR_REFERENCE_PATTERN,
    'an ISO 11649 creditor reference',
    'Structured creditor reference (ISO 11649).',
    'RF18539007547034',
  ),
  reasonCode: patterned(
    REASON_CODE_PATTERN,
    'a 4-character ISO 20022 reason code',
    'ISO 20022 reason code.',
    'AC04',
  ),
  partyName: text(70, 'Name, as the bank reports it (at most 70 characters).', 'Erika Mustermann'),
  remittanceInformation: text(
    140,
    'Unstructured remittance information the payer gave (at most 140 characters).',
    'Invoice 2026-0042',
  ),
  reasonText: text(
    105,
    "The bank's additional text about the reason (at most 105 characters).",
    'Account closed',
  ),
} as const satisfies Record<string, JsonSchemaObject>;

/** A field with its shared shape and a description of its own. */
export function field(shape: JsonSchemaObject, description: string): JsonSchemaObject {
  return { ...shape, description };
}

/** A string field that takes one of `values`. */
export function oneOf(values: readonly string[], description: string): JsonSchemaObject {
  return { type: 'string', enum: [...values], description };
}

/**
 * A party of a payment (the creditor of an outgoing transfer, the debtor of money received or of a
 * direct debit): a name, and the account and bank where known.
 */
export function party(description: string, required: readonly ('name' | 'iban')[]): JsonSchemaObject {
  return {
    type: 'object',
    description,
    properties: {
      name: FIELDS.partyName,
      iban: field(FIELDS.iban, 'IBAN of their account.'),
      bic: field(FIELDS.bic, 'BIC of their bank.'),
    },
    required: [...required],
    additionalProperties: false,
  };
}

/**
 * A payload's root schema: an object with exactly the declared fields. Conditions between fields (a
 * rejected transfer carries a reason) come as `if`/`then` pairs whose `then` has a `description`, which a
 * refusal quotes.
 */
export function payloadSchema(
  title: string,
  properties: Record<string, JsonSchemaObject>,
  required: readonly string[],
  conditions: readonly JsonSchemaObject[] = [],
): JsonSchemaObject {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title,
    type: 'object',
    properties,
    required: [...required],
    additionalProperties: false,
    ...(conditions.length > 0 ? { allOf: [...conditions] } : {}),
  };
}

/**
 * A condition on a payload with a `status` field: when `status` is one of `statuses`, `then` applies;
 * `description` says why, in a sentence a refusal can quote. A field `then` requires is named in its
 * `properties` too (as `true`: the root declares its shape), so tools that read a `required` against the
 * `properties` beside it (the OpenAPI linter, on the served document) find it declared.
 */
export function whenStatus(
  statuses: readonly string[],
  description: string,
  then: JsonSchemaObject,
): JsonSchemaObject {
  const required = Array.isArray(then.required) ? then.required.map(String) : [];
  const named = Object.fromEntries(required.map((name) => [name, true]));
  const properties = { ...named, ...(then.properties as JsonSchemaObject | undefined) };
  return {
    if: { properties: { status: { enum: [...statuses] } }, required: ['status'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, in plain data that is never awaited
    then: { description, ...then, ...(Object.keys(properties).length > 0 ? { properties } : {}) },
  };
}

/**
 * The readable statuses of a payment and the ISO 20022 transaction status codes each is reported with; an
 * empty list means the status comes without one (a return or refund is a message of its own, with only a
 * reason).
 */
export type StatusCodes = Readonly<Record<string, readonly string[]>>;

/** What a status change's own fields say, in its type's words. */
export interface StatusChangeWording {
  /** What the change is of, for the conditions ("transfer", "debit"). */
  readonly noun: string;
  readonly status: string;
  readonly statusCode: string;
  readonly reasonCode: string;
  /** The statuses that must say why in `reason_code`, and the sentence a refusal quotes. */
  readonly reasonRequired: { readonly statuses: readonly string[]; readonly description: string };
}

/**
 * The fields every payment status change reports (`status`, the ISO 20022 `status_code` it came with,
 * `reason_code`, `reason_text`), one condition per status tying it to its status codes, and the one
 * requiring a reason where the status is a failure.
 */
export function statusChange(
  codesByStatus: StatusCodes,
  wording: StatusChangeWording,
): { readonly fields: Readonly<Record<string, JsonSchemaObject>>; readonly conditions: JsonSchemaObject[] } {
  return {
    fields: {
      status: oneOf(Object.keys(codesByStatus), wording.status),
      status_code: statusCodeField(codesByStatus, wording.statusCode),
      reason_code: field(FIELDS.reasonCode, wording.reasonCode),
      reason_text: FIELDS.reasonText,
    },
    conditions: [
      ...statusCodeConditions(codesByStatus, wording.noun),
      whenStatus(wording.reasonRequired.statuses, wording.reasonRequired.description, {
        required: ['reason_code'],
      }),
    ],
  };
}

/** The `status_code` field: the codes `codesByStatus` uses, each checked to be an ISO status code. */
function statusCodeField(codesByStatus: StatusCodes, description: string): JsonSchemaObject {
  return oneOf(
    codesOf(TRANSACTION_STATUS_CODES, [...new Set(Object.values(codesByStatus).flat())]),
    description,
  );
}

/** One condition per status tying it to its status codes, worded for `noun` ("transfer", "debit"). */
function statusCodeConditions(codesByStatus: StatusCodes, noun: string): JsonSchemaObject[] {
  return Object.entries(codesByStatus).map(([status, codes]) => {
    const subject = `${/^[aeiou]/.test(status) ? 'An' : 'A'} ${status} ${noun}`;
    if (codes.length === 0) {
      return whenStatus([status], `${subject} has no status_code: it carries only a reason_code.`, {
        properties: { status_code: false },
      });
    }
    const listed = codes.length > 1 ? `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)}` : codes.join('');
    return whenStatus([status], `${subject} reports status_code ${listed}.`, {
      properties: { status_code: { enum: [...codes] } },
      required: ['status_code'],
    });
  });
}
