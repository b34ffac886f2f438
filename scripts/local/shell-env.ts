/**
 * `.herald/env`: what `npm start` tells a shell, as `export` lines to copy from its banner or to `source`.
 * The walk-through in README.md runs on these names; `test/e2e/readme-walkthrough.test.ts` runs it.
 */
import { writePrivateFile } from './private-files';

/** Path of the file, relative to the project directory. */
export const SHELL_ENV_PATH = '.herald/env';

/** What the local runtime exports to a shell. */
export interface ShellEnv {
  /** Puts `herald` and the project's Node first on the PATH. */
  readonly binDir: string;
  readonly url: string;
  readonly apiKey: string;
  readonly orgId: string;
  readonly account: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** Single-quoted for POSIX shells: nothing inside is expanded. */
const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** The `export` lines, in the order the banner shows them. */
export function shellExports(env: ShellEnv): string[] {
  return [
    `export PATH=${quote(env.binDir)}:"$PATH"`,
    `export HERALD_URL=${quote(env.url)}`,
    `export HERALD_API_KEY=${quote(env.apiKey)}`,
    `export HERALD_ORG_ID=${quote(env.orgId)}`,
    `export HERALD_ACCOUNT=${quote(env.account)}`,
    `export HERALD_REGION=${quote(env.region)}`,
    `export AWS_ACCESS_KEY_ID=${quote(env.accessKeyId)}`,
    `export AWS_SECRET_ACCESS_KEY=${quote(env.secretAccessKey)}`,
  ];
}

/**
 * Writes the {@link shellExports} lines to `file`, owner-only: they hold the local operator's secret key and
 * the demo API key.
 */
export function writeShellEnv(file: string, exports: readonly string[]): void {
  const header = '# Written by `npm start` for `source .herald/env`; removed when it stops.';
  writePrivateFile(file, `${[header, ...exports].join('\n')}\n`);
}
