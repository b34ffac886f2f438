/**
 * `docs/event-types.md` as text, rendered from the catalog (`lambdas/domain/event-types/`) and the bounds
 * in `lambdas/config/catalog-limits.ts`: the types with their fields, conditions, versions and examples, the
 * conventions, the ISO 20022 codes and the rules for operators' types. Deterministic, so a test can
 * compare it with the committed file.
 */
import { format } from '@cfworker/json-schema';
import * as limits from '#config/catalog-limits';
import { BUILT_IN_EVENT_TYPES, RECEIVER_USES } from '#domain/event-types/catalog';
import { FIELDS } from '#domain/event-types/conventions';
import { CREDIT_TRANSFER_STATUS_CODES } from '#domain/event-types/credit-transfer-status-change';
import { DIRECT_DEBIT_STATUS_CODES } from '#domain/event-types/direct-debit-status-change';
import { REFUSED_KEYWORDS } from '#domain/event-types/event-type-checks';
import {
  type IsoCode,
  REASON_CODES,
  SEQUENCE_TYPES,
  TRANSACTION_STATUS_CODES,
} from '#domain/event-types/iso20022';
import type { JsonSchemaObject } from '#domain/event-types/model';
import { NOTICE_EVENT_TYPES } from '#domain/event-types/operational-notices';
import { code, number, row } from './markdown';
import { typeSection } from './type-section';

/** The generated page. */
export function renderEventTypesDoc(): string {
  return [
    ...intro(),
    ...conventions(),
    ...uses(),
    ...BUILT_IN_EVENT_TYPES.flatMap(typeSection),
    ...notices(),
    ...isoCodes(),
    ...versions(),
    ...operatorTypes(),
  ].join('\n');
}

function intro(): string[] {
  return [
    '# Event types',
    '',
    'Generated from `lambdas/domain/event-types/` by `npm run docs:event-types`: change the catalog there,',
    'not this page (a test fails when the two differ).',
    '',
    "Every event has a `type`, and its `payload` follows that type's contract: a JSON Schema (2020-12) of",
    'the payload with its required fields, examples, and an integer `version`. Herald ships the types below;',
    'operators can register more ([Types registered by operators](#types-registered-by-operators)).',
    '',
    ...[
      ['Conventions', 'conventions'],
      ['Which type reports what', 'which-type-reports-what'],
      ...BUILT_IN_EVENT_TYPES.map((definition) => [`\`${definition.type}\``, definition.type]),
      ['Operational notices', 'operational-notices'],
      ['ISO 20022 codes', 'iso-20022-codes'],
      ['Versions', 'versions'],
      ['Types registered by operators', 'types-registered-by-operators'],
    ].map(([title, anchor]) => `- [${title}](#${anchor})`),
    '',
  ];
}

function conventions(): string[] {
  const shapes: [string, JsonSchemaObject][] = [
    ['amount', FIELDS.amount],
    ['currency', FIELDS.currency],
    ['IBAN', FIELDS.iban],
    ['BIC', FIELDS.bic],
    ['date', FIELDS.date],
    ['time', FIELDS.timestamp],
    ['SEPA reference (end-to-end id, mandate id)', FIELDS.sepaReference],
    ["gateway's id", FIELDS.gatewayId],
    ['creditor reference', FIELDS.creditorReference],
    ['reason code', FIELDS.reasonCode],
  ];
  return [
    '## Conventions',
    '',
    '| value | form | pattern | example |',
    '|---|---|---|---|',
    ...shapes.map(([what, shape]) =>
      row([
        what,
        String(shape.title),
        code(String(shape.pattern)),
        code(String((shape.examples as unknown[])[0])),
      ]),
    ),
    '',
    `- **Amounts** are decimal strings, never JSON numbers (a binary float cannot hold 0.10 exactly): ${FIELDS.amount.description} Parse them into a decimal type.`,
    "- **Dates** are `YYYY-MM-DD` and must exist in the calendar; **times**, where a payload has one, are `YYYY-MM-DD HH:MM:SS` in UTC, like the API's `triggered_at`.",
    "- **Identifiers** are checked by shape only: an IBAN's or creditor reference's check digits and a currency's existence are the bank's to know.",
    '- **Statuses** are closed lists; **reason codes** are any four capitals or digits, because ISO 20022 publishes new codes several times a year. The codes SEPA uses are listed under [ISO 20022 codes](#iso-20022-codes).',
    '- **Exactly the declared fields**: every object of a built-in payload has `additionalProperties: false`, so a misspelt optional field (`remitance_information`) is refused rather than silently lost, and no webhook carries an undocumented field. Receivers should still ignore fields they do not know: a later [version](#versions) may add some.',
    `- **Refusals**: a publish whose payload its type's schema refuses answers \`400\` (the library throws \`ValidationError\`) naming each violation \`payload\` + the JSON pointer of the field (\`payload/creditor/iban\`; in a batch \`events[<index>].payload/creditor/iban\`) with a reason in words, at most ${limits.MAX_VIOLATIONS_REPORTED}; reasons never repeat the payload's values. A type outside the catalog answers \`422\` naming the known types, and a version its type lacks \`422\` naming the versions it has. Nothing is checked again when an event is read or delivered.`,
    '',
  ];
}

/** Herald's own types: listed and documented as the others, published by Herald alone. */
function notices(): string[] {
  return [
    '## Operational notices',
    '',
    "Herald's own types: what it tells an organization about its endpoints, at its operational webhook and",
    'in `GET /operational-events` (each notice there is `id`, `type` and the payload below). `GET /event-types`',
    'lists them with `operational: true`. They are reserved: a publish (`POST /events`, `/events/batch`) or a',
    'test event naming one answers `400` naming `type`, and an operator cannot register a type of their names.',
    'Every notice has every field, `null` where its type has nothing to say, so a receiver parses one shape.',
    '',
    ...NOTICE_EVENT_TYPES.map((definition) => `- [\`${definition.type}\`](#${definition.type})`),
    '',
    ...NOTICE_EVENT_TYPES.flatMap(typeSection),
  ];
}

function uses(): string[] {
  return [
    '## Which type reports what',
    '',
    "A use that is a case of a broader type is reported the way banks report it: a recipient's account",
    'found closed is not an event of its own but a transfer rejected (pacs.002 `RJCT`) or returned',
    '(pacs.004) with reason `AC04`.',
    '',
    '| use | type | when |',
    '|---|---|---|',
    ...RECEIVER_USES.map((use) =>
      row([use.use, `[\`${use.type}\`](#${use.type})`, use.when ?? 'every event']),
    ),
    '',
  ];
}

function isoCodes(): string[] {
  const statusUses = [
    ['transfer', CREDIT_TRANSFER_STATUS_CODES],
    ['direct debit', DIRECT_DEBIT_STATUS_CODES],
  ] as const;
  const usedAs = (code: string) =>
    statusUses
      .flatMap(([noun, mapping]) =>
        Object.entries(mapping)
          .filter(([, codes]) => (codes as readonly string[]).includes(code))
          .map(([status]) => `${noun} \`${status}\``),
      )
      .join('; ');
  const table = (head: string[], lines: string[][]) => [
    row(head),
    row(head.map(() => '---')),
    ...lines.map(row),
  ];
  return [
    '## ISO 20022 codes',
    '',
    "The codes receivers' bank software already knows, with the meaning for a receiver.",
    '',
    '### Transaction statuses',
    '',
    'ExternalPaymentTransactionStatus1Code, as in pacs.002 and pain.002: `status_code`.',
    '',
    ...table(
      ['code', 'ISO name', 'meaning', 'reported as'],
      TRANSACTION_STATUS_CODES.map((entry) => [
        code(entry.code),
        entry.name,
        entry.meaning,
        usedAs(entry.code),
      ]),
    ),
    '',
    '### Reason codes',
    '',
    'ExternalStatusReason1Code (rejects) and ExternalReturnReason1Code (returns, refunds): `reason_code`. The codes',
    'SEPA credit transfers and direct debits use; others are accepted as they come.',
    '',
    ...table(
      ['code', 'ISO name', 'meaning', 'seen with'],
      REASON_CODES.map((entry) => [code(entry.code), entry.name, entry.meaning, entry.seenWith]),
    ),
    '',
    '### Direct debit sequence types',
    '',
    'SequenceType3Code: `sequence_type`. Since the 2016 rulebook a first collection may also come as `RCUR`.',
    '',
    ...table(
      ['code', 'ISO name', 'meaning'],
      SEQUENCE_TYPES.map((entry: IsoCode) => [code(entry.code), entry.name, entry.meaning]),
    ),
    '',
  ];
}

function versions(): string[] {
  return [
    '## Versions',
    '',
    '- A version is an integer from 1. Once published it never changes, its examples included: a changed',
    '  payload schema (or examples) is a new version, one above the latest. A publish may name the version',
    '  (`version`); without one it is checked against the latest. The event records the version its payload',
    "  passed: `type_version` in the API's views and in the webhook body (absent from the bodies of events",
    '  published before the catalog).',
    '- A `deprecated` type or version can still be published, and is validated as before; receivers should',
    '  expect its end and move to what replaces it. No type is ever removed.',
    '- Events stay as they were published: a new version does not touch stored events.',
    '',
  ];
}

function operatorTypes(): string[] {
  return [
    '## Types registered by operators',
    '',
    "An operator adds the deployment's own types without a code change: `herald event-type put --type TYPE",
    '--file DECLARATION.json` (or `PUT /admin/event-types/{type}`, SigV4) with a `description`, a payload',
    '`schema` and `examples`, and optionally `deprecated` ([`operating.md`](operating.md#event-types) has an',
    'example). Every organization then reads it with the built-in types: `GET /event-types` (any API key),',
    'the portal, `herald event-type list|show`; it is published and validated as a built-in type is (the',
    'version named, or the latest: a new latest version is the default of every publish within a minute),',
    'and a test event sends its example.',
    '',
    "- A new type is version 1. A declaration whose schema or examples differ from the latest version's adds",
    "  a version, one above it (without examples, the latest version's are checked against the new schema);",
    '  the description and `deprecated` change in place; a field left out keeps what is stored.',
    "- Built-in types cannot be changed or given a version: Herald's releases number their versions, and an",
    "  operator's version would collide with the one a release brings. Name your own types with a prefix of",
    '  your own (`acme.card_settled`).',
    '- `deprecated: true` marks the type; publishing it still works, and `false` undoes it.',
    "- The public `GET /openapi.json` has a webhook per built-in type only: the operators' types are read",
    '  with an API key.',
    '',
    'Each type is checked before it is accepted, and a refusal names every problem by where it is',
    `(\`schema/properties/amount/type\`, \`examples/0/payload/currency\`), at most ${limits.MAX_VIOLATIONS_REPORTED}:`,
    '',
    '- the schema is JSON Schema 2020-12 (checked against the meta-schema) whose root is `"type": "object"`;',
    '  `$schema`, when present, is `https://json-schema.org/draft/2020-12/schema`;',
    `- at most ${number(limits.MAX_EVENT_TYPE_SCHEMA_BYTES)} bytes of JSON, nested at most ${limits.MAX_EVENT_TYPE_SCHEMA_DEPTH} levels, and at most ${number(limits.MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES)} schemas once each \`$ref\` is replaced by its target;`,
    '- `$ref` points inside the schema (starts with `#`) and never leads back to a schema containing it (no',
    '  recursion); `$id` and `$schema` only at the root; anchors are unique;',
    `- patterns have at most ${limits.MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH} characters and never repeat a group whose content varies in length (\`(a+)+\`, \`([a-z]{1,8})+\`), which can backtrack for exponential time;`,
    `- \`format\` is checked, not only noted, for the formats the validator knows (${Object.keys(format)
      .map(code)
      .join(', ')}); others are annotations;`,
    `- \`uniqueItems\` comes with \`maxItems\` of at most ${number(limits.MAX_EVENT_TYPE_UNIQUE_ITEMS)};`,
    `- refused keywords: ${Object.entries(REFUSED_KEYWORDS)
      .map(([keyword, reason]) => `\`${keyword}\` (${reason})`)
      .join('; ')};`,
    `- 1 to ${limits.MAX_EVENT_TYPE_EXAMPLES} examples, each at most ${number(limits.MAX_EVENT_TYPE_EXAMPLE_BYTES)} bytes, with a unique snake_case name and a summary, and each passing the schema;`,
    `- a description of at most ${number(limits.MAX_EVENT_TYPE_DESCRIPTION_LENGTH)} characters.`,
    '',
    `A deployment holds at most ${limits.MAX_OPERATOR_EVENT_TYPES} operators' types, each with at most ${limits.MAX_EVENT_TYPE_VERSIONS} versions.`,
    "Schemas are interpreted, never compiled to code, so an operator's schema runs no code in Herald.",
    '',
  ];
}
