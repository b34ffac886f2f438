/**
 * Requests read by their declared schemas (`read-request.ts`, issue 30): what a schema says is what is
 * checked, each refusal names the field and what it allows, in the schema's order, and the marks Herald
 * adds to a schema (optional, a reason, a `$ref`'s target) never reach the served document.
 */
import { Validator } from '@cfworker/json-schema';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildOpenApiDocument } from '#http/openapi/document';
import { readBody, readBodyValue, readQuery, refusal } from '#http/read-request';
import {
  array,
  body,
  closed,
  described,
  EVENT_TYPE,
  flag,
  int,
  itemsApart,
  nullable,
  oneOfValues,
  optional,
  optionalBody,
  type RequestBody,
  ref,
  type Schema,
  targetOf,
  text,
  uri,
  withReason,
} from '#http/schema';
import { invalidParams } from '../domain/catch-error';
import { apiEvent } from '../support/api-event';

const THING = closed({
  name: text('A name.', { minLength: 1, maxLength: 5 }),
  count: optional(int('How many.', 1, { maximum: 9 })),
  kind: optional(oneOfValues(['a', 'b'])),
  home: optional(withReason(nullable(uri('Where.')), 'must be a URL, or null')),
  type: optional(described(ref('EventType', EVENT_TYPE), 'Its type.')),
  tags: optional(array(text('A tag.'), { uniqueItems: true })),
});
const REQUIRED = body(THING);
const OPTIONAL = optionalBody(closed({ count: optional(int('How many.', 0)) }));

const read = (value: unknown, declared: RequestBody<unknown> = REQUIRED) =>
  readBody(apiEvent(value === undefined ? {} : { body: JSON.stringify(value) }), declared);
const query = (params: Record<string, string[]>) =>
  readQuery(
    params,
    closed({
      page: optional(int('Page.', 1)),
      erase: optional(flag('Erase.')),
      kind: optional(oneOfValues(['a', 'b'])),
    }),
  );

describe('readBody', () => {
  it('returns the body when every field conforms', () => {
    const value = { name: 'x', count: 3, kind: 'a', home: null, type: 'a.b', tags: ['p', 'q'] };
    expect(read(value)).toEqual(value);
  });

  it.each([
    ['[1]', 'an array'],
    ['"x"', 'a string'],
    ['{"name":', 'not JSON'],
  ])('refuses %s (%s) as the body', (raw) => {
    expect(invalidParams(() => readBody(apiEvent({ body: raw }), REQUIRED))).toEqual([
      { name: 'body', reason: 'must be a JSON object' },
    ]);
  });

  it('names an unknown field first, with the fields allowed', () => {
    expect(invalidParams(() => read({ count: 0, extra: 1 }))).toEqual([
      { name: 'extra', reason: 'unknown field; allowed: name, count, kind, home, type, tags' },
    ]);
  });

  it('names the first failing field in the order of the schema, a missing one included', () => {
    expect(invalidParams(() => read({ count: 10 }))).toEqual([
      { name: 'name', reason: 'must be a string of 1 to 5 characters' },
    ]);
    expect(invalidParams(() => read({ kind: 'c', count: 0, name: 'x' }))).toEqual([
      { name: 'count', reason: 'must be an integer from 1 to 9' },
    ]);
    expect(invalidParams(() => read({ name: 'x', kind: 'c' }))).toEqual([
      { name: 'kind', reason: 'must be one of a, b' },
    ]);
    expect(invalidParams(() => read({ name: 'x', tags: ['p', 'p'] }))).toEqual([
      { name: 'tags', reason: 'must be a list' },
    ]);
  });

  it("gives a field's own reason, and a referenced schema's", () => {
    expect(invalidParams(() => read({ name: 'x', home: 42 }))).toEqual([
      { name: 'home', reason: 'must be a URL, or null' },
    ]);
    expect(invalidParams(() => read({ name: 'x', type: 'Not A Type' }))).toEqual([
      { name: 'type', reason: refusal(EVENT_TYPE) },
    ]);
    expect(refusal(EVENT_TYPE)).toMatch(/snake_case.*at most 64/);
  });

  it('leaves `format` to the domain, as JSON Schema 2020-12 does', () => {
    expect(read({ name: 'x', home: '/relative' })).toEqual({ name: 'x', home: '/relative' });
  });

  it('reads an absent or blank optional body as {}, and checks it like any other', () => {
    expect(read(undefined, OPTIONAL)).toEqual({});
    expect(readBody(apiEvent({ body: '  \n' }), OPTIONAL)).toEqual({});
    expect(invalidParams(() => read({ count: -1 }, OPTIONAL))).toEqual([
      { name: 'count', reason: 'must be an integer of 0 or more' },
    ]);
    expect(invalidParams(() => read(undefined))).toEqual([{ name: 'body', reason: 'must be a JSON object' }]);
  });
});

describe('a list read apart', () => {
  const ITEM = closed({ n: int('A number.', 1) });
  const LIST = body(closed({ items: itemsApart(ITEM, { minItems: 1, maxItems: 3 }) }));

  it("checks only the list's own bounds, leaving each item to be read on its own", () => {
    expect(read({ items: [{ n: 0 }, 'x', { n: 1, extra: 2 }] }, LIST)).toEqual({
      items: [{ n: 0 }, 'x', { n: 1, extra: 2 }],
    });
    expect(invalidParams(() => read({ items: [] }, LIST))).toEqual([
      { name: 'items', reason: 'must be a list' },
    ]);
    expect(invalidParams(() => read({ items: [1, 2, 3, 4] }, LIST))).toEqual([
      { name: 'items', reason: 'must be a list' },
    ]);
  });

  it('reads an item as a body of its own schema, and the document shows that schema', () => {
    expect(readBodyValue({ n: 2 }, body(ITEM))).toEqual({ n: 2 });
    expect(invalidParams(() => readBodyValue({ n: 0 }, body(ITEM)))).toEqual([
      { name: 'n', reason: 'must be an integer of 1 or more' },
    ]);
    expect(invalidParams(() => readBodyValue('x', body(ITEM)))).toEqual([
      { name: 'body', reason: 'must be a JSON object' },
    ]);
    expect(JSON.parse(JSON.stringify(LIST.content['application/json'].schema)).properties.items).toEqual({
      type: 'array',
      items: JSON.parse(JSON.stringify(ITEM)),
      minItems: 1,
      maxItems: 3,
    });
  });
});

describe("a request body's cost", () => {
  afterEach(() => vi.restoreAllMocks());

  it('is bounded: a list past its maxItems is refused before any pair of it is compared', () => {
    const validate = vi.spyOn(Validator.prototype, 'validate');
    const LIST = body(closed({ tags: array(text('A tag.'), { maxItems: 2, uniqueItems: true }) }));
    const tags = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
    expect(invalidParams(() => read({ tags }, LIST))).toEqual([{ name: 'tags', reason: 'must be a list' }]);
    expect(validate).not.toHaveBeenCalled();
    expect(read({ tags: ['a', 'b'] }, LIST)).toEqual({ tags: ['a', 'b'] });
  });

  it('is bounded for every route: each list a request may carry has a maxItems', () => {
    const lists: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = targetOf(node as Schema) ?? (node as Schema);
      if (schema.type === 'array' && typeof schema.maxItems !== 'number') lists.push(at);
      for (const [key, item] of Object.entries(schema)) walk(item, `${at}/${key}`);
    };
    const doc = buildOpenApiDocument('https://api.example.com');
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        walk(operation?.requestBody, `${method} ${path}`);
        for (const parameter of operation?.parameters ?? []) walk(parameter, `${method} ${path}`);
      }
    }
    expect(lists).toEqual([]);
  });
});

describe('readQuery', () => {
  it('reads integers in plain decimal and booleans as true or false', () => {
    expect(query({ page: ['12'], erase: ['false'], kind: ['b'] })).toEqual({
      page: 12,
      erase: false,
      kind: 'b',
    });
    expect(query({ page: [] })).toEqual({});
  });

  it.each(['0', '05', '+5', '1e1', '1.0', ' 5', '9007199254740992', ''])('refuses page=%j', (value) => {
    expect(invalidParams(() => query({ page: [value] }))).toEqual([
      { name: 'page', reason: 'must be an integer of 1 or more' },
    ]);
  });

  it('refuses another boolean, naming what is allowed', () => {
    expect(invalidParams(() => query({ erase: ['yes'] }))).toEqual([
      { name: 'erase', reason: 'must be true or false' },
    ]);
  });

  it('names unknown parameters first (in sorted order), then repeated ones', () => {
    expect(invalidParams(() => query({ zeta: ['1'], alpha: ['1'], page: ['1', '2'] }))).toEqual([
      { name: 'alpha', reason: 'unknown parameter; allowed: page, erase, kind' },
    ]);
    expect(invalidParams(() => query({ page: ['1', '2'] }))).toEqual([
      { name: 'page', reason: 'given more than once' },
    ]);
  });
});

describe('schemas in the document', () => {
  it('carry none of what only the reader needs', () => {
    expect(JSON.parse(JSON.stringify(THING))).toEqual(THING);
    expect(Object.keys(THING.properties as object)).toEqual([
      'name',
      'count',
      'kind',
      'home',
      'type',
      'tags',
    ]);
    expect(THING.required).toEqual(['name']);
    expect((THING.properties as Record<string, unknown>).type).toEqual({
      $ref: '#/components/schemas/EventType',
      description: 'Its type.',
    });
  });
});
