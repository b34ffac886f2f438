/**
 * Subscriptions: an event matches when its type is listed (or none is) and its payload passes the filter
 * (or there is none); the lists of types are checked against the catalog. The receivers' uses, written
 * as subscriptions, pick exactly the catalog's examples they describe, and every filter the docs show is
 * one Herald accepts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_VIOLATIONS_REPORTED } from '#config/catalog-limits';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { checkFilter } from '#domain/subscriptions/filter-check';
import { eventTypesProblems, matchesEvent, type Subscription } from '#domain/subscriptions/subscription';
import { accepted } from './accepted-filter';

const examples = BUILT_IN_EVENT_TYPES.flatMap((definition) =>
  definition.versions.flatMap((version) =>
    version.examples.map((example) => ({
      type: definition.type,
      name: `${definition.type} ${example.name}`,
      payload: example.payload,
    })),
  ),
);
const catalog = new Set(BUILT_IN_EVENT_TYPES.map((definition) => definition.type));
const isCatalogType = (type: string) => catalog.has(type);

/** The receivers' uses (docs/subscriptions.md's examples), and the catalog's examples each picks. */
const uses: { use: string; subscription: Subscription; picks: string[] }[] = [
  {
    use: 'credits above 1,000.00 EUR',
    subscription: {
      eventTypes: ['credit_received'],
      filter: accepted({ amount: [{ numeric: ['>', '1000.00'] }], currency: ['EUR'] }),
    },
    picks: ['credit_received structured_reference'],
  },
  {
    use: 'direct debits returned for insufficient funds',
    subscription: {
      eventTypes: ['direct_debit_status_change'],
      filter: accepted({ status: ['returned'], reason_code: ['AM04'] }),
    },
    picks: ['direct_debit_status_change returned_insufficient_funds'],
  },
  {
    use: 'failed recurring direct debits',
    subscription: {
      eventTypes: ['direct_debit_status_change'],
      filter: accepted({ sequence_type: ['RCUR', 'FRST', 'FNAL'], status: ['rejected', 'returned'] }),
    },
    picks: [
      'direct_debit_status_change returned_insufficient_funds',
      'direct_debit_status_change rejected_closed_account',
    ],
  },
  {
    use: "transfers to one bank's IBANs",
    subscription: {
      eventTypes: ['credit_transfer_status_change'],
      filter: accepted({ creditor: { iban: [{ prefix: 'NL91ABNA' }] } }),
    },
    picks: ['credit_transfer_status_change rejected_insufficient_funds'],
  },
  {
    use: 'accounts found closed',
    subscription: {
      eventTypes: ['credit_transfer_status_change', 'direct_debit_status_change'],
      filter: accepted({ status: ['rejected', 'returned'], reason_code: ['AC04'] }),
    },
    picks: [
      'credit_transfer_status_change rejected_closed_account',
      'credit_transfer_status_change returned_closed_account',
      'direct_debit_status_change rejected_closed_account',
    ],
  },
  {
    use: 'transfer changes but the routine ones',
    subscription: {
      eventTypes: ['credit_transfer_status_change'],
      filter: accepted({ status: [{ 'anything-but': ['accepted', 'settled'] }] }),
    },
    picks: [
      'credit_transfer_status_change rejected_closed_account',
      'credit_transfer_status_change returned_closed_account',
      'credit_transfer_status_change rejected_insufficient_funds',
    ],
  },
];

describe('matchesEvent', () => {
  const event = { type: 'credit_received', payload: { amount: '12.50' } };

  it('lets every event through a subscription without types or filter', () => {
    expect(matchesEvent({}, event)).toBe(true);
    expect(matchesEvent({ eventTypes: undefined, filter: undefined }, event)).toBe(true);
  });

  it('needs the event type to be listed', () => {
    expect(matchesEvent({ eventTypes: ['credit_received', 'x'] }, event)).toBe(true);
    expect(matchesEvent({ eventTypes: ['direct_debit_status_change'] }, event)).toBe(false);
  });

  it('needs the payload to match the filter', () => {
    const filter = accepted({ amount: [{ numeric: ['<', 100] }] });
    expect(matchesEvent({ filter }, event)).toBe(true);
    expect(matchesEvent({ filter }, { ...event, payload: { amount: '100.00' } })).toBe(false);
  });

  it('needs both, and skips the filter for a type not listed', () => {
    let steps = 0;
    const subscription = { eventTypes: ['x'], filter: accepted({ amount: [{ exists: true }] }) };
    expect(matchesEvent(subscription, event, () => (steps += 1))).toBe(false);
    expect(steps).toBe(0);
    expect(matchesEvent({ ...subscription, eventTypes: ['credit_received'] }, event)).toBe(true);
  });

  it.each(uses)('picks the catalog examples of $use', ({ subscription, picks }) => {
    const picked = examples.filter((example) => matchesEvent(subscription, example)).map(({ name }) => name);
    expect(picked).toEqual(picks);
  });
});

describe('eventTypesProblems', () => {
  it('accepts types of the catalog', () => {
    expect(eventTypesProblems(['credit_received', 'direct_debit_status_change'], isCatalogType)).toEqual([]);
  });

  it('names each unknown, malformed or repeated type at its index', () => {
    expect(
      eventTypesProblems(
        ['credit_received', 'credit_recieved', 'Credit Received', 'credit_received'],
        isCatalogType,
      ),
    ).toEqual([
      { name: 'event_types/1', reason: 'credit_recieved is not an event type of the catalog' },
      {
        name: 'event_types/2',
        reason: expect.stringMatching(/^must be an event type's name: lower-case snake_case/),
      },
      { name: 'event_types/3', reason: 'credit_received is listed twice' },
    ]);
  });

  it(`lists at most ${MAX_VIOLATIONS_REPORTED} problems`, () => {
    const unknown = Array.from({ length: 30 }, (_, i) => `unknown_${i}`);
    expect(eventTypesProblems(unknown, isCatalogType)).toHaveLength(MAX_VIOLATIONS_REPORTED);
  });

  it('refuses an empty list, which would subscribe to nothing', () => {
    expect(eventTypesProblems([], isCatalogType, 'endpoint/event_types')).toEqual([
      {
        name: 'endpoint/event_types',
        reason: expect.stringMatching(/at least one event type: leave it out/),
      },
    ]);
  });
});

describe('docs/subscriptions.md', () => {
  const page = readFileSync(resolve(import.meta.dirname, '../../../docs/subscriptions.md'), 'utf8');
  const blocks = [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => JSON.parse(match[1] ?? ''));

  it('shows only filters Herald accepts', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(uses.length);
    for (const block of blocks) expect(checkFilter(block)).toEqual({ ok: true, filter: block });
  });

  it.each(uses)('shows the filter of $use', ({ subscription }) => {
    expect(blocks).toContainEqual(subscription.filter);
  });
});
