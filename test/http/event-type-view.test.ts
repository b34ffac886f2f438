/**
 * The catalog's answers: a type shown whole, a type at every limit carried within one answer (so a
 * listing always makes progress), and a listing of large types split into answers whose `Link: next`
 * goes on after the last type returned, reading no type beyond the one that did not fit.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_EVENT_TYPE_DESCRIPTION_LENGTH,
  MAX_EVENT_TYPE_EXAMPLE_BYTES,
  MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH,
  MAX_EVENT_TYPE_EXAMPLES,
  MAX_EVENT_TYPE_SCHEMA_BYTES,
  MAX_EVENT_TYPE_VERSIONS,
} from '#config/catalog-limits';
import { ANSWER_BODY_MAX_BYTES } from '#config/limits';
import { builtInEventType } from '#domain/event-types/catalog';
import type { CatalogEntry, EventTypeDefinition } from '#domain/event-types/model';
import { carriedBytes } from '#http/answer-size';
import { toEventTypeListAnswer, toEventTypeView } from '#http/event-types/event-type-view';

/** Text whose every character costs the most carried: `"` is `\"` in the body, `\\\"` in the response. */
const costly = (chars: number): string => '"'.repeat(chars);

/** A type at every limit: the most versions, each with the largest schema and examples. */
function largest(type: string): CatalogEntry {
  // The schema's JSON counts each quote of its description twice (`\"`), hence half as many.
  const schema = { type: 'object', description: costly((MAX_EVENT_TYPE_SCHEMA_BYTES - 40) / 2) };
  expect(Buffer.byteLength(JSON.stringify(schema))).toBeLessThanOrEqual(MAX_EVENT_TYPE_SCHEMA_BYTES);
  const examples = Array.from({ length: MAX_EVENT_TYPE_EXAMPLES }, (_, i) => ({
    name: `example_${i}_${'x'.repeat(50)}`,
    summary: costly(MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH),
    payload: { text: costly((MAX_EVENT_TYPE_EXAMPLE_BYTES - 20) / 2) },
  }));
  const definition: EventTypeDefinition = {
    type,
    description: costly(MAX_EVENT_TYPE_DESCRIPTION_LENGTH),
    deprecated: false,
    versions: Array.from({ length: MAX_EVENT_TYPE_VERSIONS }, (_, i) => ({
      version: i + 1,
      schema,
      examples,
      deprecated: false,
    })),
  };
  return { definition, builtIn: false };
}

/** The entries, counting how many were taken. */
function counted(entries: readonly CatalogEntry[]): {
  iterable: AsyncIterable<CatalogEntry>;
  taken: () => number;
} {
  let taken = 0;
  return {
    taken: () => taken,
    iterable: {
      async *[Symbol.asyncIterator]() {
        for (const entry of entries) {
          taken += 1;
          yield entry;
        }
      },
    },
  };
}

describe('a type as shown', () => {
  it('has every version with its schema and examples', () => {
    const definition = builtInEventType('credit_received');
    if (definition === undefined) throw new Error('no credit_received');
    const view = toEventTypeView({ definition, builtIn: true });
    expect(view).toMatchObject({
      type: 'credit_received',
      built_in: true,
      deprecated: false,
      latest_version: 1,
    });
    expect(view.versions).toEqual(
      definition.versions.map((version) => ({
        version: version.version,
        deprecated: false,
        schema: version.schema,
        examples: version.examples,
      })),
    );
  });

  it('fits one answer even at every limit, so a listing always makes progress', () => {
    const bytes = carriedBytes(JSON.stringify([toEventTypeView(largest('acme.large'))]));
    expect(bytes).toBeLessThan(ANSWER_BODY_MAX_BYTES);
    expect(bytes).toBeLessThan(5_000_000);
    // Most of the budget: a second such type never fits beside it.
    expect(bytes * 2).toBeGreaterThan(ANSWER_BODY_MAX_BYTES);
  });
});

describe('a listing', () => {
  it('ends an answer before the type that would pass the budget, linking after the last one', async () => {
    const entries = ['acme.a', 'acme.b', 'acme.c'].map(largest);
    const base = 'https://api.example.test/v1';
    const source = counted(entries);
    const first = await toEventTypeListAnswer(source.iterable, base, '/event-types');
    expect(first.types.map((t) => t.type)).toEqual(['acme.a']);
    expect(first.link).toBe('<https://api.example.test/v1/event-types?after=acme.a>; rel="next"');
    // The one that did not fit was read; none after it.
    expect(source.taken()).toBe(2);
  });

  it('has no link when every type fits', async () => {
    const small = {
      ...largest('acme.small'),
      definition: builtInEventType('credit_received') as EventTypeDefinition,
    };
    const answer = await toEventTypeListAnswer(
      counted([small, small]).iterable,
      'https://x.test',
      '/admin/event-types',
    );
    expect(answer.types).toHaveLength(2);
    expect(answer.link).toBeUndefined();
  });
});
