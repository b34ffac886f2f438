/**
 * A notice's payload checked against its catalog type, for the tests that produce notices through the
 * code: every payload Herald stores must pass the schema it documents.
 */
import { expect } from 'vitest';
import { NOTICE_EVENT_TYPES } from '#domain/event-types/operational-notices';
import { type CompiledEventType, compileEventType } from '#domain/event-types/payload-validation';
import type { Notice } from '#domain/notices/notice';
import { noticePayload } from '#domain/notices/notice-payload';
import { checkVersion } from './payload-check';

let compiled: ReadonlyMap<string, CompiledEventType> | undefined;

/** Asserts each notice's payload passes its kind's schema (and that there is at least one notice). */
export function expectNoticesInCatalog(notices: readonly Notice[]): void {
  compiled ??= new Map(
    NOTICE_EVENT_TYPES.map((definition) => [definition.type, compileEventType(definition)]),
  );
  expect(notices.length).toBeGreaterThan(0);
  for (const notice of notices) {
    const type = compiled.get(notice.kind);
    expect(type, notice.kind).toBeDefined();
    const payload = JSON.parse(JSON.stringify(noticePayload(notice)));
    expect(checkVersion(type as CompiledEventType, undefined, payload), notice.kind).toEqual({
      ok: true,
      version: 1,
    });
  }
}
