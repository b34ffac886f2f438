/**
 * The operator CLI as one esbuild bundle, so `herald` starts without a TypeScript compiler: built at
 * install (`npm install` runs `prepare`), by `npm start`, and again by `bin/herald.mjs` whenever a source
 * file it was built from is newer than the bundle. Plain JavaScript, because the launcher runs it before
 * any TypeScript can be loaded.
 *
 * Run directly (`node scripts/cli/bundle.mjs`) it builds the bundle when stale and links `node_modules/.bin/herald`
 * to `bin/herald.mjs`, so that `export PATH="$PWD/node_modules/.bin:$PATH"` puts `herald` (and the
 * project's Node 24) on the PATH without npx's start-up on every call.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the bundle and the list of files it was built from (repository-relative) are written. */
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'herald-cli');
const bundleIn = (outDir) => join(outDir, 'herald-cli.mjs');
const inputsIn = (outDir) => join(outDir, 'inputs.json');
/** Read only for `--api-url` (deployed stacks): loaded from node_modules then, not parsed at every start. */
const EXTERNAL = ['@aws-sdk/credential-provider-node'];

/** Modification time in ms, or undefined when the file is missing. */
function modified(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * True when the bundle is missing or any of its inputs (sources, `package.json`, the installed
 * dependencies) changed after it was built. One `stat` per input: well under a millisecond, against
 * hundreds for a rebuild.
 */
export function isStale(outDir = OUT_DIR) {
  const built = modified(bundleIn(outDir));
  if (built === undefined) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(inputsIn(outDir), 'utf8'));
  } catch {
    return true;
  }
  return inputs.some((input) => (modified(join(ROOT, input)) ?? Number.POSITIVE_INFINITY) > built);
}

/** Builds the bundle with esbuild (a devDependency, imported only when a build is needed). */
export async function buildCliBundle(outDir = OUT_DIR) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(ROOT, 'scripts/cli/main.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ES module builds first, as for the functions (lambdas/config/bundling.ts): the SDK's CommonJS
    // builds pull in all of @smithy/core, most of which the CLI never runs.
    mainFields: ['module', 'main'],
    external: EXTERNAL,
    // Bundled CommonJS dependencies call `require` for Node built-ins; ESM has none of its own.
    banner: {
      js: "import { createRequire as __heraldCreateRequire } from 'node:module'; const require = __heraldCreateRequire(import.meta.url);",
    },
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // Dependencies change only with an install, which npm records in node_modules/.package-lock.json (and
  // which runs `prepare`); watching that one file instead of each package's keeps the check to ~15 stats.
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'));
  const inputs = [...sources, 'scripts/cli/bundle.mjs', 'package.json', 'node_modules/.package-lock.json'];
  mkdirSync(outDir, { recursive: true });
  // Written beside and renamed: several CLI processes may find the bundle stale at once.
  const temporary = `${bundleIn(outDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, result.outputFiles[0].contents);
  writeFileSync(inputsIn(outDir), `${JSON.stringify(inputs)}\n`);
  renameSync(temporary, bundleIn(outDir));
}

/** The bundle's URL, rebuilt first when stale. */
export async function freshCliBundle(outDir = OUT_DIR) {
  if (isStale(outDir)) await buildCliBundle(outDir);
  return pathToFileURL(bundleIn(outDir)).href;
}

/** Links `node_modules/.bin/herald` to `bin/herald.mjs` (what npm does for a dependency's bin, not for the project's own). */
export function linkHeraldBin() {
  const link = join(ROOT, 'node_modules', '.bin', 'herald');
  mkdirSync(dirname(link), { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(link), join(ROOT, 'bin', 'herald.mjs')), link);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await freshCliBundle();
  linkHeraldBin();
}
