/**
 * How every Lambda bundle is built: the stack's `HeraldFunction` passes these settings to
 * `NodejsFunction`, and `npm run bench` feeds the same ones to esbuild directly to measure cold starts.
 * Plain data, so the benchmark need not load aws-cdk-lib.
 */

/**
 * esbuild emits ESM, but some bundled CommonJS dependencies still call `require` for Node built-ins;
 * ESM has no `require`, so the bundle defines one.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __heraldCreateRequire } from 'node:module'; const require = __heraldCreateRequire(import.meta.url);";

/** Prefer the SDK's ES module builds: they tree-shake better than the CommonJS ones. */
export const MAIN_FIELDS = ['module', 'main'];

/** Lambda's Node major, also the esbuild target. */
export const NODE_TARGET = 'node24';

/** The esbuild options equivalent to the stack's bundling settings. */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: NODE_TARGET,
  mainFields: MAIN_FIELDS,
  banner: { js: ESM_REQUIRE_BANNER },
  minify: true,
  sourcemap: true,
  // File and line numbers are enough in stack traces; embedding sources would double the asset.
  sourcesContent: false,
  // Problems only: the per-bundle size summary (18 blocks per synth) buries cdk-nag's and CDK's findings.
  logLevel: 'warning',
} as const;
