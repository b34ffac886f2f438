import { type EventTypeDefinition, type EventTypeVersion, latestVersion } from '#domain/event-types/model';
import { schemaConditions, schemaFields } from '#domain/event-types/schema-fields';
import { code, row } from './markdown';

/**
 * One type's section of the page: its description, its versions and their state, then each version's
 * fields, conditions, examples and JSON Schema.
 */
export function typeSection(definition: EventTypeDefinition): string[] {
  const latest = latestVersion(definition).version;
  return [
    `## \`${definition.type}\``,
    '',
    definition.description,
    '',
    ...(definition.deprecated ? ['**Deprecated**: publishing it still works; expect its end.', ''] : []),
    '| version | state |',
    '|---|---|',
    ...definition.versions.map((version) =>
      row([
        `${version.version}${version.version === latest ? ' (latest)' : ''}`,
        version.deprecated ? 'deprecated' : 'current',
      ]),
    ),
    '',
    ...definition.versions.flatMap((version) => versionSection(definition, version)),
  ];
}

/** One version of a type: its fields as a table, its conditions, its examples and its schema. */
function versionSection(definition: EventTypeDefinition, version: EventTypeVersion): string[] {
  const conditions = schemaConditions(version.schema);
  return [
    `### \`${definition.type}\` version ${version.version}`,
    '',
    '| field | type | required | values | description |',
    '|---|---|---|---|---|',
    ...schemaFields(version.schema).map((field) =>
      row([
        code(field.path),
        field.type,
        field.required ? 'yes' : 'no',
        field.values === undefined ? field.shape : field.values.map(code).join(', '),
        field.description,
      ]),
    ),
    '',
    ...(conditions.length > 0 ? ['Conditions:', '', ...conditions.map((text) => `- ${text}`), ''] : []),
    'Examples:',
    '',
    ...version.examples.flatMap((example) => [
      `- \`${example.name}\`: ${example.summary}`,
      '',
      '  ```json',
      ...JSON.stringify(example.payload, null, 2)
        .split('\n')
        .map((line) => `  ${line}`),
      '  ```',
      '',
    ]),
    '<details><summary>The JSON Schema</summary>',
    '',
    '```json',
    JSON.stringify(version.schema, null, 2),
    '```',
    '',
    '</details>',
    '',
  ];
}
