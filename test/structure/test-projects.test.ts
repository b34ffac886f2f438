/**
 * Each test file runs in the project its needs call for (`vitest.config.ts`). The `unit` and
 * `simulation` projects need nothing running: no emulator, local runtime, browser or synthesized CDK
 * app, so `npm run test:unit` takes seconds and starts no process of its own. A file that needs more is
 * listed by name or folder; this checks the lists against what each file imports.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it, vi } from 'vitest';
import { startDynamoDbLocal, startEmulators, startFauxqs } from '#local/emulators';
import config, { NEEDS_EMULATORS, NEEDS_SYNTH, SIMULATIONS } from '../../vitest.config';
import { type ImportTarget, importClosure, PROJECT_ROOT, readAliases, sourceFiles } from './import-rules';

const aliases = readAliases(PROJECT_ROOT);
/** Each file's direct imports, parsed once for every closure. */
const parsed = new Map<string, readonly ImportTarget[]>();
const testFiles = sourceFiles(PROJECT_ROOT, ['test']).filter((file) => file.endsWith('.test.ts'));
const LISTS = { NEEDS_EMULATORS, NEEDS_SYNTH, SIMULATIONS };

const listed = (entries: readonly string[], file: string): boolean =>
  entries.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));

/** What a file that needs nothing running may not reach, and why, as printed in a failure. */
const STARTS_SOMETHING: readonly (readonly [string, (reached: string) => boolean])[] = [
  ['starts the local runtime', (reached) => reached === 'file:scripts/local/runtime.ts'],
  ['uses the emulators of the run', (reached) => reached === 'file:test/support/resources.ts'],
  ['drives a browser', (reached) => reached.startsWith('package:playwright')],
  [
    'synthesizes the CDK app',
    (reached) => reached.startsWith('package:aws-cdk-lib') || reached.startsWith('file:lib/'),
  ],
];

/** Why `file` needs more than its project gives, one reason per thing it reaches. */
function needsMore(file: string): string[] {
  const reached = [...importClosure(PROJECT_ROOT, file, aliases, parsed)];
  return STARTS_SOMETHING.flatMap(([why, matches]) => {
    const via = reached.find(matches);
    return via ? [`${file} ${why} (${via})`] : [];
  });
}

describe('the test projects', () => {
  it.each(Object.entries(LISTS))('%s names only folders and files that exist', (_, entries) => {
    expect(entries.filter((entry) => !existsSync(join(PROJECT_ROOT, entry)))).toEqual([]);
  });

  it('put every test file in one project at most besides unit', () => {
    const twice = testFiles.filter(
      (file) => Object.values(LISTS).filter((entries) => listed(entries, file)).length > 1,
    );
    expect(twice).toEqual([]);
  });

  it('leave out of the emulators and synthesis lists only files that reach neither', () => {
    const light = testFiles.filter((file) => !listed([...NEEDS_EMULATORS, ...NEEDS_SYNTH], file));
    expect(light.length).toBeGreaterThan(50);
    expect(light.flatMap(needsMore)).toEqual([]);
  });

  it('see what a file reaches through its imports', () => {
    expect(needsMore('test/e2e/publish-api.test.ts').join('\n')).toMatch(/starts the local runtime/);
    expect(needsMore('test/infra/functions.test.ts').join('\n')).toMatch(/synthesizes the CDK app/);
    expect(needsMore('test/domain/iban.test.ts')).toEqual([]);
  });

  it('give the unit project no global setup, so it is handed no emulator endpoints', () => {
    const unit = config.test?.projects?.find(
      (project) => typeof project === 'object' && 'test' in project && project.test?.name === 'unit',
    );
    expect(unit).toBeDefined();
    expect(
      unit && typeof unit === 'object' && 'test' in unit ? unit.test?.globalSetup : 'none',
    ).toBeUndefined();
    expect(inject('heraldEndpoints')).toBeUndefined();
  });

  it('refuse, in the unit project, to start an emulator, naming the list to move the file to', () => {
    for (const start of [startDynamoDbLocal, startFauxqs, startEmulators]) {
      // Checked first: called unguarded, a start would launch the emulator this guards against.
      expect(vi.isMockFunction(start)).toBe(true);
      expect(() => start()).toThrow(/NEEDS_EMULATORS/);
    }
  });
});
