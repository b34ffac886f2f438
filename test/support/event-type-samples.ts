/**
 * Small operator event types for the catalog's tests: a payload schema, its examples, and a later
 * version that requires one more field.
 */
import type { EventTypeExample, JsonSchemaObject } from '#domain/event-types/model';

/** Version 1 of `acme.card_settled`: an amount. */
export const CARD_V1: JsonSchemaObject = {
  type: 'object',
  properties: { amount: { type: 'string', description: 'Amount, decimal.' } },
  required: ['amount'],
  additionalProperties: false,
};

export const CARD_V1_EXAMPLES: readonly EventTypeExample[] = [
  { name: 'settled', summary: 'A card payment settled.', payload: { amount: '12.50' } },
];

/** Version 2: the amount and its currency, both required. */
export const CARD_V2: JsonSchemaObject = {
  type: 'object',
  properties: {
    amount: { type: 'string', description: 'Amount, decimal.' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' },
  },
  required: ['amount', 'currency'],
  additionalProperties: false,
};

export const CARD_V2_EXAMPLES: readonly EventTypeExample[] = [
  { name: 'settled', summary: 'A card payment settled.', payload: { amount: '12.50', currency: 'EUR' } },
];

/** The whole body of a PUT that registers `acme.card_settled` version 1. */
export const CARD_DECLARATION = {
  description: 'A card payment settled on the account.',
  schema: CARD_V1,
  examples: CARD_V1_EXAMPLES,
} as const;
