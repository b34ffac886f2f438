/**
 * The event type catalog: every type a receiver may get, and for one type each version's fields as a
 * table, its conditions, its examples and its JSON Schema. The fields are read from the schema by the
 * same code that writes `docs/event-types.md`, so the page and the docs cannot disagree.
 */
import { schemaConditions, schemaFields } from '../../lambdas/domain/event-types/schema-fields';
import { type Answer, call, describe } from './api';
import { cell, copyable, h, mount, notice } from './dom';

/** A type as `GET /event-types` shows it (see the `EventTypeEntry` schema). */
export interface EventType {
  type: string;
  description: string;
  built_in: boolean;
  operational: boolean;
  deprecated: boolean;
  latest_version: number;
  versions: {
    version: number;
    deprecated: boolean;
    schema: Record<string, unknown>;
    examples: { name: string; summary: string; payload: unknown }[];
  }[];
}

/** Most answers the list follows: each carries as many types as about 6 MB hold. */
const MAX_PAGES = 10;

const typeHref = (type: string, version?: number): string =>
  `#/event-types/${encodeURIComponent(type)}${version === undefined ? '' : `?version=${version}`}`;

/** Text with its `backticked` parts as code, as the catalog writes field names and values in prose. */
function prose(text: string): (string | HTMLElement)[] {
  return text.split('`').map((part, index) => (index % 2 === 1 ? h('code', {}, part) : part));
}

function labels(type: EventType): HTMLElement[] {
  return [
    h(
      'span',
      { class: 'badge' },
      type.operational ? 'operational' : type.built_in ? 'built-in' : 'registered',
    ),
    type.deprecated ? h('span', { class: 'badge s-failed' }, 'deprecated') : null,
  ].filter((label): label is HTMLElement => label !== null);
}

/** Every type of the catalog (at most {@link MAX_PAGES} answers), following the listing's `next` links. */
export async function loadCatalog(): Promise<EventType[]> {
  const types: EventType[] = [];
  let path: string | undefined = '/event-types';
  for (let page = 0; path !== undefined && page < MAX_PAGES; page++) {
    const answer: Answer<EventType[]> = await call<EventType[]>(path);
    types.push(...answer.data);
    const next: string | undefined = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('Link') ?? '')?.[1];
    path = next === undefined ? undefined : `/event-types${new URL(next).search}`;
  }
  return types;
}

/** Renders `#/event-types`: every type, following the listing's `next` links. */
export async function renderCatalog(main: HTMLElement): Promise<void> {
  mount(main, h('h1', {}, 'Event types'), notice('info', 'Loading the catalog…'));
  let types: EventType[];
  try {
    types = await loadCatalog();
  } catch (error) {
    mount(main, h('h1', {}, 'Event types'), notice('error', describe(error, 'The event type catalog')));
    return;
  }
  mount(
    main,
    h('h1', {}, 'Event types'),
    h(
      'p',
      {},
      'Each event has a type, and its payload follows that type’s contract: a JSON Schema with examples, ' +
        'versioned. A webhook carries the event’s type; open one to see the fields its payload has.',
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'catalog cards' },
        h('caption', { class: 'sr' }, 'Event types, by name'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Type', 'Versions', 'Description'].map((title) => h('th', { scope: 'col' }, title)),
          ),
        ),
        h(
          'tbody',
          {},
          types.map((type) =>
            h(
              'tr',
              { 'data-type': type.type },
              cell(
                'Type',
                { class: 'mono' },
                h('a', { href: typeHref(type.type) }, type.type),
                ' ',
                labels(type),
              ),
              cell('Versions', { class: 'num' }, type.versions.length),
              cell('Description', {}, prose(type.description)),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Renders `#/event-types/<type>?version=N`: one version of a type (the latest by default). */
export async function renderEventType(
  main: HTMLElement,
  name: string,
  query: URLSearchParams,
): Promise<void> {
  mount(main, h('h1', {}, name), notice('info', 'Loading the type…'));
  let type: EventType;
  try {
    type = (await call<EventType>(`/event-types/${encodeURIComponent(name)}`)).data;
  } catch (error) {
    mount(main, h('h1', {}, name), notice('error', describe(error, 'The event type catalog')));
    return;
  }
  const wanted = Number(query.get('version') ?? type.latest_version);
  const version = type.versions.find((v) => v.version === wanted) ?? type.versions.at(-1);
  if (version === undefined) return;
  const conditions = schemaConditions(version.schema);
  mount(
    main,
    h('p', {}, h('a', { href: '#/event-types' }, '← Event types')),
    h('h1', {}, type.type),
    h('p', {}, labels(type)),
    h('p', {}, prose(type.description)),
    h(
      'nav',
      { class: 'pager versions', 'aria-label': 'Versions' },
      h('span', {}, 'Versions:'),
      type.versions.map((v) =>
        h(
          'a',
          { href: typeHref(type.type, v.version), 'aria-current': v === version ? 'page' : undefined },
          `${v.version}${v.version === type.latest_version ? ' (latest)' : ''}${v.deprecated ? ' (deprecated)' : ''}`,
        ),
      ),
    ),
    h('h2', {}, `Fields of version ${version.version}`),
    fieldsTable(version.schema),
    conditions.length > 0
      ? [
          h('h2', {}, 'Conditions'),
          h(
            'ul',
            {},
            conditions.map((text) => h('li', {}, text)),
          ),
        ]
      : null,
    h('h2', {}, `Examples (${version.examples.length})`),
    version.examples.flatMap((example) => [
      h('h3', { class: 'mono' }, example.name),
      h('p', {}, example.summary),
      copyable(`example ${example.name}`, JSON.stringify(example.payload, null, 2)),
    ]),
    h(
      'details',
      {},
      h('summary', {}, 'The JSON Schema'),
      copyable('schema', JSON.stringify(version.schema, null, 2)),
    ),
  );
}

function fieldsTable(schema: Record<string, unknown>): HTMLElement {
  const fields = schemaFields(schema);
  if (fields.length === 0) return notice('info', 'The schema declares no fields.');
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'fields cards' },
      h('caption', { class: 'sr' }, 'Fields of the payload'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Field', 'Type', 'Required', 'Values', 'Description'].map((title) =>
            h('th', { scope: 'col' }, title),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        fields.map((field) =>
          h(
            'tr',
            { 'data-field': field.path },
            cell('Field', { class: 'mono' }, field.path),
            cell('Type', {}, field.type),
            cell('Required', {}, field.required ? 'yes' : 'no'),
            cell(
              'Values',
              { class: 'wrap' },
              field.values === undefined ? field.shape : field.values.join(', '),
            ),
            cell('Description', {}, prose(field.description)),
          ),
        ),
      ),
    ),
  );
}
