/**
 * What the README walk-through test needs: the README's code blocks marked `walk-through`, a shell
 * environment as a new terminal has it, and `npm start`'s runtime (`scripts/local/main.ts`) started in a
 * directory of its own, as a user's terminal would find it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { findFreePort } from '../../scripts/local/emulators';
import { waitFor } from './wait';

export const ROOT = resolve(import.meta.dirname, '../..');

/** A fenced code block of a Markdown page (README.md unless given another). */
export interface ReadmeBlock {
  /** The info string's first word: `sh`, `python`… */
  readonly language: string;
  readonly code: string;
}

/** The blocks whose info string carries the word `walk-through`, in README order. */
export function walkThroughBlocks(
  markdown: string = readFileSync(join(ROOT, 'README.md'), 'utf8'),
): ReadmeBlock[] {
  return taggedBlocks('walk-through', markdown);
}

/** The blocks whose info string carries the word `tag` (e.g. a receiver snippet's), in page order. */
export function taggedBlocks(
  tag: string,
  markdown: string = readFileSync(join(ROOT, 'README.md'), 'utf8'),
): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  for (const match of markdown.matchAll(/^```(\S+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const [, language = '', info = '', code = ''] = match;
    if (info.split(/\s+/).includes(tag)) blocks.push({ language, code });
  }
  return blocks;
}

/**
 * The environment of a new terminal: this process's, less what the test run itself added (the project's
 * `node_modules/.bin` on the PATH, npm's and Node's variables) and less any AWS or Herald variable, so
 * only `source .herald/env` can provide them.
 */
export function freshShellEnv(): Record<string, string> {
  const projectBins = (dir: string) =>
    dir.includes(join(ROOT, 'node_modules')) || dir.endsWith('node_modules/.bin');
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(AWS_|HERALD_|npm_|NODE_|VITEST)/.test(name)) continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !projectBins(dir))
    .join(delimiter);
  return env;
}

/** `npm start`'s runtime, running in a directory of its own. */
export interface StartedHerald {
  /** Everything it printed so far. */
  output(): string;
  /** Stops it as Ctrl-C does and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `scripts/local/main.ts --in-memory` in `cwd` (which then holds its `.herald/`) on a free port,
 * and resolves once it printed its banner.
 */
export async function startHerald(cwd: string): Promise<StartedHerald> {
  const shellEnv = freshShellEnv();
  // As `npm start` runs it: npm puts the project's node_modules/.bin (and so its Node 24) first.
  const env = {
    ...shellEnv,
    PATH: `${join(ROOT, 'node_modules/.bin')}${delimiter}${shellEnv.PATH}`,
    PORT: String(await findFreePort()),
  };
  const child: ChildProcess = spawn(
    join(ROOT, 'node_modules/.bin/tsx'),
    [join(ROOT, 'scripts/local/main.ts'), '--in-memory'],
    { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`npm start's runtime exited:\n${output}`);
        return output.includes('Ctrl-C stops everything.');
      },
      { timeoutMs: 180_000, intervalMs: 200 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { output: () => output, stop };
}
