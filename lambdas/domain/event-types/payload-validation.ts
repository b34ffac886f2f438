/**
 * The rule at publish: a payload must pass its type's schema (the version named, or the latest). Schemas
 * are prepared once per container (`compileEventType`), then each check is one walk of the payload by
 * `@cfworker/json-schema`, an interpreter of schemas: nothing is generated or evaluated as code, so an
 * operator's schema runs no code in the function.
 */
import { type Schema, validate } from '@cfworker/json-schema';
import { MAX_VIOLATIONS_REPORTED } from '#config/catalog-limits';
import { type CompiledSchema, compileSchema } from './compiled-schema';
import { type EventTypeDefinition, type EventTypeVersion, latestVersion } from './model';
import { type PayloadViolation, violationsOf } from './violations';

/** A type with each version's schema compiled. */
export interface CompiledEventType {
  readonly definition: EventTypeDefinition;
  readonly versions: ReadonlyMap<
    number,
    { readonly version: EventTypeVersion; readonly schema: CompiledSchema }
  >;
  /** The latest version's number: what a publish without `version` is checked against. */
  readonly latest: number;
}

/** What a check found: the version it used, and the violations (none when valid). */
export type PayloadCheck =
  | { readonly ok: true; readonly version: number }
  | {
      readonly ok: false;
      readonly version: number;
      /** At least one, at most {@link MAX_VIOLATIONS_REPORTED}, in the schema's order. */
      readonly violations: readonly [PayloadViolation, ...PayloadViolation[]];
      /** How many more there were. */
      readonly omitted: number;
    };

/** Compiles every version of a type. */
export function compileEventType(definition: EventTypeDefinition): CompiledEventType {
  const versions = new Map(
    definition.versions.map((version) => [
      version.version,
      { version, schema: compileSchema(version.schema) },
    ]),
  );
  return { definition, versions, latest: latestVersion(definition).version };
}

/** Checks a payload against the compiled schema of `version` (a version the caller found). */
export function checkPayload(schema: CompiledSchema, version: number, payload: unknown): PayloadCheck {
  const [first, ...rest] = schemaViolations(schema, payload);
  if (first === undefined) return { ok: true, version };
  return {
    ok: false,
    version,
    violations: [first, ...rest.slice(0, MAX_VIOLATIONS_REPORTED - 1)],
    omitted: Math.max(0, rest.length + 1 - MAX_VIOLATIONS_REPORTED),
  };
}

/** Every violation of a payload against a compiled schema, unbounded (callers keep the first few). */
export function schemaViolations(schema: CompiledSchema, payload: unknown): PayloadViolation[] {
  let result: ReturnType<typeof validate>;
  try {
    result = validate(payload, schema.root, '2020-12', schema.lookup as Record<string, Schema>, false);
  } catch (error) {
    // The validator builds each field's pointer with encodeURI, which throws on a lone UTF-16 surrogate.
    if (error instanceof URIError) {
      return [{ pointer: '', reason: 'has a field name that is not valid Unicode text (a lone surrogate)' }];
    }
    throw error;
  }
  return result.valid ? [] : violationsOf(result.errors, schema, payload);
}
