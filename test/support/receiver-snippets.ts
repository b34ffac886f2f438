/**
 * Runs the receiver snippets of `docs/receiver-security.md` (code blocks tagged with a snippet name) as a
 * receiver would: the
 * Node one imported from a temporary module, the Python one by `python3`, each fed webhooks as a real
 * receiver got them (headers and raw body) and answering what its function returns.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, taggedBlocks } from './readme-walkthrough';

/** One call of a snippet's function: its arguments as JSON can carry them (the body as base64). */
export interface SnippetCall {
  readonly args: readonly unknown[];
  /** Index in `args` of the raw body, given as base64 and passed as bytes. */
  readonly bodyArg: number;
}

/** The page whose snippets these are. */
const PAGE = 'docs/receiver-security.md';

function block(tag: string, language: string): string {
  const found = taggedBlocks(tag, readFileSync(join(ROOT, PAGE), 'utf8')).find(
    (b) => b.language === language,
  );
  if (!found) throw new Error(`${PAGE} has no ${language} block tagged ${tag}`);
  return found.code;
}

/** Calls the exported function `name` of the page's `js` block tagged `tag`, once per call. */
export async function runNodeSnippet(tag: string, name: string, calls: readonly SnippetCall[]) {
  // Inside the project, so the snippet's own imports (`jose`) resolve as in a receiver's project.
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'herald-snippet-'));
  try {
    const file = join(dir, 'snippet.mjs');
    writeFileSync(file, block(tag, 'js'));
    const module = (await import(pathToFileURL(file).href)) as Record<string, (...a: unknown[]) => unknown>;
    const fn = module[name];
    if (!fn) throw new Error(`the ${tag} snippet exports no ${name}`);
    return Promise.all(
      calls.map((call) =>
        fn(...call.args.map((arg, i) => (i === call.bodyArg ? Buffer.from(String(arg), 'base64') : arg))),
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Calls the function `name` of the page's `python` block tagged `tag` with `python3`, once per call. */
export function runPythonSnippet(tag: string, name: string, calls: readonly SnippetCall[]): unknown[] {
  const driver = `${block(tag, 'python')}
import base64 as _b64, json as _json, sys as _sys
_results = []
for _call in _json.load(_sys.stdin):
    _args = list(_call["args"])
    _args[_call["bodyArg"]] = _b64.b64decode(_args[_call["bodyArg"]])
    _results.append(${name}(*_args))
print(_json.dumps(_results))
`;
  const run = spawnSync('python3', ['-c', driver], { input: JSON.stringify(calls), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as unknown[];
}
