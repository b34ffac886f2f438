/**
 * The dependency rule of the source tree as code: which folder may import which. The checker reads
 * import, `export … from`, `import x = require()` and literal dynamic `import()` specifiers with the
 * TypeScript scanner (so comments and strings never count), resolves `#alias/*` through `package.json`
 * `imports` and relative paths against the importing file, then applies {@link RULES}.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** Where a specifier points: a file of this repository (repo-relative, `/`-separated) or a package. */
export type ImportTarget =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'package'; readonly name: string };

/** One import that breaks a rule. */
export interface Violation {
  /** The importing file, repo-relative. */
  readonly file: string;
  /** The specifier as written. */
  readonly specifier: string;
  /** Which rule, in words. */
  readonly rule: string;
}

interface Rule {
  /** Folder (repo-relative, trailing `/`) whose files the rule applies to, or a pattern of their paths. */
  readonly from: string | RegExp;
  /** Why, as printed in a failure. */
  readonly says: string;
  /** True when the import breaks the rule. */
  readonly forbids: (target: ImportTarget) => boolean;
}

const under =
  (...folders: string[]) =>
  (target: ImportTarget): boolean =>
    target.kind === 'file' && folders.some((folder) => target.path.startsWith(folder));

const AWS_OR_HTTP_PACKAGE =
  /^(@aws-sdk\/|@aws-lambda-powertools\/|@middy\/|aws-lambda$|aws-cdk-lib|node:https?$|https?$)/;

/** The delivery wing's pure files: each concept's rule (`<concept>-rule.ts`) and port (`*-port.ts`). */
const DELIVERY_PURE = /^lambdas\/delivery\/[^/]+-(rule|port)\.ts$/;

/**
 * Pure code may import pure code (`domain/`, the delivery wing's rules and ports) and `config/` (not
 * `config/env`), and no AWS or HTTP package.
 */
const impure = (target: ImportTarget): boolean =>
  target.kind === 'package'
    ? AWS_OR_HTTP_PACKAGE.test(target.name)
    : target.path === 'lambdas/config/env.ts' ||
      (target.path.startsWith('lambdas/') &&
        !target.path.startsWith('lambdas/domain/') &&
        !target.path.startsWith('lambdas/config/') &&
        !DELIVERY_PURE.test(target.path));

/** The delivery wing's orchestration: every file of it but its rules and ports. */
const deliveryOrchestration = (target: ImportTarget): boolean =>
  target.kind === 'file' && target.path.startsWith('lambdas/delivery/') && !DELIVERY_PURE.test(target.path);

/** The rules; a file under several `from` folders obeys all of them. */
export const RULES: readonly Rule[] = [
  {
    from: 'lambdas/',
    says: 'runtime code imports no infrastructure, scripts or tests',
    forbids: under('lib/', 'scripts/', 'bin/', 'test/'),
  },
  { from: 'lib/', says: 'the stack imports no scripts or tests', forbids: under('scripts/', 'test/') },
  {
    from: 'lambdas/config/',
    says: 'config imports nothing else under lambdas/',
    forbids: (target) =>
      target.kind === 'file' &&
      target.path.startsWith('lambdas/') &&
      !target.path.startsWith('lambdas/config/'),
  },
  {
    from: 'lambdas/domain/',
    says: 'domain imports pure code (domain/, delivery rules and ports), config/ but env, no AWS or HTTP',
    forbids: impure,
  },
  {
    from: DELIVERY_PURE,
    says: 'a delivery rule or port is pure: domain/, delivery rules and ports, config/ but env; no AWS, HTTP',
    forbids: impure,
  },
  {
    from: 'lambdas/delivery/',
    says: 'the delivery wing sees ports, not use-cases/, http/, handlers/ or adapters/',
    forbids: under('lambdas/use-cases/', 'lambdas/http/', 'lambdas/handlers/', 'lambdas/adapters/'),
  },
  {
    from: 'lambdas/use-cases/',
    says: 'use-cases see ports and delivery rules, not http/, handlers/, adapters/ or delivery orchestration',
    forbids: (target) =>
      under('lambdas/http/', 'lambdas/handlers/', 'lambdas/adapters/')(target) ||
      deliveryOrchestration(target),
  },
  {
    from: 'lambdas/adapters/',
    says: 'adapters import no use-cases, delivery orchestration or handlers',
    forbids: (target) =>
      under('lambdas/use-cases/', 'lambdas/handlers/')(target) || deliveryOrchestration(target),
  },
  {
    from: 'lambdas/http/',
    says: 'http sits beside the use-cases: no use-cases, delivery orchestration, adapters or handlers',
    forbids: (target) =>
      under('lambdas/use-cases/', 'lambdas/adapters/', 'lambdas/handlers/')(target) ||
      deliveryOrchestration(target),
  },
  {
    from: 'scripts/local/',
    says: 'the local runtime does not import the CLI (the CLI reads the local runtime)',
    forbids: under('scripts/cli/'),
  },
];

/** Source that may not mention `process.env`, beyond what the import rules say. */
const NO_PROCESS_ENV = ['lambdas/domain/', 'lambdas/delivery/'];

/** `package.json` `imports` (`#x/*` → `./dir/*.ts`). */
export type AliasMap = Readonly<Record<string, string>>;

/** Every specifier a source text imports, in order. */
export function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** Resolves a specifier written in `file` (repo-relative) to a repository file or a package. */
export function resolveSpecifier(file: string, specifier: string, aliases: AliasMap): ImportTarget {
  if (specifier.startsWith('#')) {
    for (const [pattern, replacement] of Object.entries(aliases)) {
      const prefix = pattern.replace(/\*$/, '');
      if (pattern.endsWith('*') ? specifier.startsWith(prefix) : specifier === pattern) {
        const rest = specifier.slice(prefix.length);
        return { kind: 'file', path: posix.normalize(replacement.replace('*', rest)) };
      }
    }
    return { kind: 'package', name: specifier };
  }
  if (specifier.startsWith('.')) {
    const joined = posix.normalize(posix.join(posix.dirname(file), specifier));
    return { kind: 'file', path: /\.[cm]?[jt]s$/.test(joined) ? joined : `${joined}.ts` };
  }
  return { kind: 'package', name: specifier };
}

/** The violations of one source text, as if it were the repository file `file`. */
export function checkSource(file: string, source: string, aliases: AliasMap): Violation[] {
  const violations: Violation[] = [];
  for (const specifier of importSpecifiers(source)) {
    const target = resolveSpecifier(file, specifier, aliases);
    for (const rule of RULES) {
      const applies = typeof rule.from === 'string' ? file.startsWith(rule.from) : rule.from.test(file);
      if (applies && rule.forbids(target)) {
        violations.push({ file, specifier, rule: rule.says });
      }
    }
  }
  if (NO_PROCESS_ENV.some((folder) => file.startsWith(folder)) && readsProcessEnv(source)) {
    violations.push({ file, specifier: 'process.env', rule: 'domain and delivery read no environment' });
  }
  return violations;
}

/** The source files (`.ts`, `.mjs`) under the given folders of `root`, repo-relative. */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts')) files.push(relative(root, path));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return files.map((file) => file.split(sep).join('/')).sort();
}

/** The `imports` map of the package.json in `root`. */
export function readAliases(root: string): AliasMap {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: AliasMap };
  return pkg.imports ?? {};
}

/** Every violation in the tree at `root`. */
export function checkTree(root: string, folders: readonly string[]): Violation[] {
  const aliases = readAliases(root);
  return sourceFiles(root, folders).flatMap((file) =>
    checkSource(file, readFileSync(join(root, file), 'utf8'), aliases),
  );
}

/**
 * Everything `file` (repo-relative) reaches through its imports, itself included: repository files as
 * `file:<path>`, packages as `package:<name>`. A file that does not exist ends its branch. `read` caches
 * each file's direct imports, so closures of many files share the parsing.
 */
export function importClosure(
  root: string,
  file: string,
  aliases: AliasMap,
  read: Map<string, readonly ImportTarget[]> = new Map(),
): Set<string> {
  const direct = (path: string): readonly ImportTarget[] => {
    let targets = read.get(path);
    if (!targets) {
      const full = join(root, path);
      targets = existsSync(full)
        ? importSpecifiers(readFileSync(full, 'utf8')).map((specifier) =>
            resolveSpecifier(path, specifier, aliases),
          )
        : [];
      read.set(path, targets);
    }
    return targets;
  };
  const reached = new Set<string>();
  const pending = [file];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (reached.has(`file:${next}`)) continue;
    reached.add(`file:${next}`);
    for (const target of direct(next)) {
      if (target.kind === 'file') pending.push(target.path);
      else reached.add(`package:${target.name}`);
    }
  }
  return reached;
}

/** The project root (two levels above this file). */
export const PROJECT_ROOT = dirname(dirname(import.meta.dirname));

/** True when the code (not its comments or strings) contains `process.env`. */
export function readsProcessEnv(source: string): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source);
  const tokens: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    tokens.push(
      token === ts.SyntaxKind.Identifier || token === ts.SyntaxKind.DotToken ? scanner.getTokenText() : '',
    );
    if (tokens.slice(-3).join(' ') === 'process . env') return true;
  }
  return false;
}

/**
 * The import graph of the source files under `folders` of `root`: each file with the files of that set
 * it imports (type-only imports and `export … from` included; packages and files elsewhere left out).
 */
export function importGraph(root: string, folders: readonly string[]): Map<string, string[]> {
  const aliases = readAliases(root);
  const files = sourceFiles(root, folders);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(readFileSync(join(root, file), 'utf8'))
      .map((specifier) => resolveSpecifier(file, specifier, aliases))
      .flatMap((target) => (target.kind === 'file' && known.has(target.path) ? [target.path] : []));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The import cycles of `graph`: its strongly connected components (Tarjan) of two files or more, and any
 * file that imports itself; each cycle's files sorted, the cycles sorted by their first file.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}
