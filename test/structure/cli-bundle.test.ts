/**
 * The operator CLI runs as an esbuild bundle (`scripts/cli/bundle.mjs`), with no TypeScript compiler at
 * run time, and the bundle is rebuilt before use whenever a file it was built from is newer.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

interface CliBundleModule {
  isStale(outDir: string): boolean;
  buildCliBundle(outDir: string): Promise<void>;
  freshCliBundle(outDir: string): Promise<string>;
}

let bundler: CliBundleModule;
let outDir: string;

beforeAll(async () => {
  // A computed specifier: the module is plain JavaScript without type declarations.
  bundler = (await import(pathToFileURL(join(ROOT, 'scripts/cli/bundle.mjs')).href)) as CliBundleModule;
  outDir = mkdtempSync(join(tmpdir(), 'herald-cli-bundle-'));
  await bundler.buildCliBundle(outDir);
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the CLI bundle', () => {
  it('runs --help on its own, and neither it nor the launcher loads a TypeScript compiler', () => {
    const bundle = join(outDir, 'herald-cli.mjs');
    expect(execFileSync(NODE, [bundle, '--help'], { encoding: 'utf8' })).toMatch(/^Usage: herald <command>/);
    const imports = [...readFileSync(bundle, 'utf8').matchAll(/\bfrom\s*"([^"]+)"|import\("([^"]+)"\)/g)].map(
      (match) => match[1] ?? match[2],
    );
    expect(imports.filter((name) => /tsx|typescript|esbuild/.test(name ?? ''))).toEqual([]);
    expect(readFileSync(join(ROOT, 'bin/herald.mjs'), 'utf8')).not.toMatch(/tsx|typescript/);
  });

  it('is fresh after a build, stale once a source is newer or the bundle is gone, and rebuilt before use', async () => {
    const bundle = join(outDir, 'herald-cli.mjs');
    expect(bundler.isStale(outDir)).toBe(false);
    // Older than every source: as if scripts/cli/main.ts had been edited after the build.
    utimesSync(bundle, new Date(0), new Date(0));
    expect(bundler.isStale(outDir)).toBe(true);
    await bundler.freshCliBundle(outDir);
    expect(bundler.isStale(outDir)).toBe(false);
    rmSync(bundle);
    expect(bundler.isStale(outDir)).toBe(true);
    expect(await bundler.freshCliBundle(outDir)).toBe(pathToFileURL(bundle).href);
    expect(bundler.isStale(outDir)).toBe(false);
  });

  it('watches its sources, its own build script, package.json and the installed dependencies', () => {
    const inputs = JSON.parse(readFileSync(join(outDir, 'inputs.json'), 'utf8')) as string[];
    expect(inputs).toEqual(
      expect.arrayContaining([
        'scripts/cli/main.ts',
        'scripts/cli/commands.ts',
        'lambdas/config/routes.ts',
        'scripts/cli/bundle.mjs',
        'package.json',
        'node_modules/.package-lock.json',
      ]),
    );
  });
});
