/**
 * `npm install` says nothing but what it did (issue 28, item 8). npm measures each package's engines
 * against the Node that runs npm, not the project's own Node 24 on which everything then runs, so npm on
 * Node 20 or 21 would warn that a few packages want Node 22 or newer; the project's `.npmrc` keeps npm to
 * errors. This runs npm's install plan from the lockfile as a new terminal would (the machine's Node and
 * npm, not the project's), in a copy of the manifest, the lockfile and the `.npmrc`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellEnv, ROOT } from '../support/readme-walkthrough';

const dir = mkdtempSync(join(tmpdir(), 'herald-npm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm install', () => {
  it('prints no warning, whatever Node runs npm', () => {
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      copyFileSync(join(ROOT, file), join(dir, file));
    const run = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: freshShellEnv(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    // A dry run lists each package it would add, then the count.
    const said = `${run.stdout}\n${run.stderr}`
      .split('\n')
      .filter((line) => !/^(add .+|added \d+ packages.*|)$/.test(line));
    expect(said).toEqual([]);
  });
});
