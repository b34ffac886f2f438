/**
 * The CLI's commands for the event type catalog: every type in brief, one type whole, and an operator's
 * registration or change of a type from a JSON file.
 */
import { readFileSync } from 'node:fs';
import type { EventTypeView } from '#http/event-types/event-type-view';
import { adminRoute, bodyOf } from './admin-route';
import { allPages, type Command } from './command';
import { type Flags, required, UsageError } from './flags';

/** The `event-type …` commands, in the order the usage text lists them. */
export const EVENT_TYPE_COMMANDS: Readonly<Record<string, Command>> = {
  'event-type list': {
    usage:
      'event-type list   (every type of the catalog in brief, built-in (operational notices among them) and registered: follows the pages)',
    route: 'adminListEventTypes',
    run: async (call) => {
      const types = (await allPages(call, adminRoute('adminListEventTypes')[1], '')) as EventTypeView[];
      return types.map((shown) => ({
        type: shown.type,
        built_in: shown.built_in,
        operational: shown.operational,
        deprecated: shown.deprecated,
        latest_version: shown.latest_version,
        description: shown.description,
      }));
    },
  },
  'event-type show': {
    usage: 'event-type show --type TYPE   (every version with its schema and examples)',
    route: 'adminGetEventType',
    run: (call, flags) => bodyOf(call(...adminRoute('adminGetEventType', { type: required(flags, 'type') }))),
  },
  'event-type put': {
    usage: `event-type put --type TYPE [--file DECLARATION.json] [--deprecated true|false]
      (registers a type from the file's {"description", "schema", "examples"}, or changes one: a schema or
      examples other than the latest version's make a new version; what the file leaves out is kept)`,
    route: 'putEventType',
    run: (call, flags) => {
      const body = { ...declaration(flags), ...deprecation(flags) };
      if (Object.keys(body).length === 0)
        throw new UsageError('event-type put needs --file or --deprecated.');
      return bodyOf(call(...adminRoute('putEventType', { type: required(flags, 'type') }), body));
    },
  },
};

/** The JSON object of `--file`; nothing when absent. */
function declaration(flags: Flags): Record<string, unknown> {
  const file = flags.file;
  if (file === undefined) return {};
  let text: string;
  try {
    text = readFileSync(String(file), 'utf8');
  } catch {
    throw new UsageError(`--file ${String(file)} cannot be read.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--file ${String(file)} is not JSON.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(
      `--file ${String(file)} must hold a JSON object: {"description", "schema", "examples"}.`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** `deprecated` from `--deprecated true|false`; nothing when absent. */
function deprecation(flags: Flags): { deprecated?: boolean } {
  const value = flags.deprecated;
  if (value === undefined) return {};
  if (value !== 'true' && value !== 'false') throw new UsageError('--deprecated takes true or false.');
  return { deprecated: value === 'true' };
}
