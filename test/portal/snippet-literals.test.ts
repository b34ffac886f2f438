/**
 * The receiver snippets with hostile values (quotes, backslashes, line breaks of every kind, `${}` and
 * `#{}` interpolation, backticks, comment ends, Java's `\u` escapes, control and astral characters): each
 * value stays one literal of the snippet's language and the code around it is unchanged. Checked by the
 * languages themselves where this machine has them (Node's parser and evaluator; Python's `ast`; `javac`
 * and `java`, which the build needs anyway; `sh`), and for every language by reading the literal back.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import {
  goLiteral,
  javaLiteral,
  jsLiteral,
  type Literal,
  pythonLiteral,
  rubyLiteral,
} from '../../portal/src/literals';
import { ENV_TOKEN, LANGUAGES, type Language, snippet } from '../../portal/src/snippets';

const HOSTILE = [
  `'); require('child_process').execSync('id'); ('`,
  `"); import os; os.system("id"); ("`,
  'back\\slash \\" \\\\',
  'new\nline\r\nand\u2028separator\u2029end\u0085',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the very text a template literal would run
  '${process.exit(1)}',
  '#{system("id")} #@x #$y',
  '`id` $(id) %s %n',
  '*/ static { System.exit(1); } /*',
  '\\u000a System.exit(2); \\u0022 \\u005c',
  'tab\tnul\u0000del\u007fesc\u001b',
  'Ünïcödé 😀 \ud800 lone',
];
const BENIGN = { path: '/hooks/herald', orgName: 'Acme' };
/** What a value reads back as: an unpaired surrogate is not text, so it becomes U+FFFD. */
const wellFormed = (value: string): string =>
  value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const dir = mkdtempSync(join(tmpdir(), 'herald-literals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The literal each snippet spells its values with. */
const LITERAL_OF: Readonly<Record<Language, Literal>> = {
  Node: jsLiteral,
  Python: pythonLiteral,
  Go: goLiteral,
  Java: javaLiteral,
  Ruby: rubyLiteral,
  'X-Signature (Node)': jsLiteral,
};
const text = (language: Language, path: string, orgName: string) =>
  snippet(language, { tokenLiteral: ENV_TOKEN, path, orgName });
const available = (command: string): boolean => spawnSync(command, ['--version']).status === 0;

/** A literal read back by the escapes its language's literals here may contain, or undefined. */
function readBack(literal: string, escapes: 'utf16' | 'codepoint' | 'ruby'): string | undefined {
  if (!/^"[\x20-\x7e]*"$/.test(literal)) return undefined;
  const forms = {
    utf16: /\\u([0-9a-f]{4})/y,
    codepoint: /\\u([0-9a-f]{4})|\\U([0-9a-f]{8})/y,
    ruby: /\\u\{([0-9a-f]+)\}/y,
  }[escapes];
  const simple: Record<string, string> = { '\\\\': '\\', '\\"': '"', '\\n': '\n', '\\r': '\r', '\\t': '\t' };
  if (escapes === 'ruby') simple['\\#'] = '#';
  const units: string[] = [];
  let at = 1;
  while (at < literal.length - 1) {
    const two = literal.slice(at, at + 2);
    forms.lastIndex = at;
    const escaped = forms.exec(literal);
    if (simple[two] !== undefined) {
      units.push(simple[two]);
      at += 2;
    } else if (escaped) {
      const code = Number.parseInt(escaped[1] ?? escaped[2] ?? '', 16);
      units.push(escapes === 'utf16' ? String.fromCharCode(code) : String.fromCodePoint(code));
      at += escaped[0].length;
    } else if (!'"\\'.includes(literal[at] ?? '') && !(escapes === 'ruby' && literal[at] === '#')) {
      units.push(literal[at] ?? '');
      at += 1;
    } else {
      return undefined;
    }
  }
  return units.join('');
}

describe('literals of every language read back as the value, in printable ASCII', () => {
  const cases: [string, Literal, 'utf16' | 'codepoint' | 'ruby'][] = [
    ['Node', jsLiteral, 'utf16'],
    ['Python', pythonLiteral, 'codepoint'],
    ['Go', goLiteral, 'codepoint'],
    ['Java', javaLiteral, 'utf16'],
    ['Ruby', rubyLiteral, 'ruby'],
  ];
  it.each(cases)('%s', (_, literal, escapes) => {
    for (const value of HOSTILE) expect(readBack(literal(value), escapes), value).toBe(wellFormed(value));
  });

  it('Node evaluates each literal to the value', () => {
    for (const value of HOSTILE) expect(runInNewContext(jsLiteral(value)), value).toBe(wellFormed(value));
  });
});

describe('snippets with hostile values keep their code', () => {
  it.each(LANGUAGES)('%s: the same text as with benign values but for the literals', (language) => {
    const literal = LITERAL_OF[language];
    const holes = (source: string, ...values: string[]) =>
      values.reduce((out, value) => out.split(literal(value)).join('<literal>'), source);
    const benign = holes(text(language, BENIGN.path, BENIGN.orgName), BENIGN.path, BENIGN.orgName);
    for (const value of HOSTILE) expect(holes(text(language, value, value), value), value).toBe(benign);
  });

  it('Node: the snippets parse to the same statements, the route and the name as literals', () => {
    const parse = (source: string) => {
      const file = ts.createSourceFile('s.mjs', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      const diagnostics = (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
      return { file, diagnostics, kinds: file.statements.map((s) => ts.SyntaxKind[s.kind]) };
    };
    for (const language of ['Node', 'X-Signature (Node)'] as const) {
      const benign = parse(text(language, BENIGN.path, BENIGN.orgName));
      for (const value of HOSTILE) {
        const source = text(language, value, value);
        const parsed = parse(source);
        expect(parsed.diagnostics, value).toEqual([]);
        expect(parsed.kinds, value).toEqual(benign.kinds);
        const firstLine = source.split('\n')[0] ?? '';
        const named = (/ of (".*")$/.exec(firstLine) ?? /\((".*")\)\.$/.exec(firstLine))?.[1] ?? '';
        expect(runInNewContext(named), value).toBe(wellFormed(value));
        if (language === 'Node') {
          const routes: string[] = [];
          const visit = (node: ts.Node): void => {
            if (ts.isCallExpression(node) && node.expression.getText() === 'app.post') {
              const [first] = node.arguments;
              if (first && ts.isStringLiteral(first)) routes.push(first.text);
            }
            ts.forEachChild(node, visit);
          };
          visit(parsed.file);
          expect(routes, value).toEqual([wellFormed(value)]);
        }
      }
    }
  });

  it.skipIf(!available('python3'))('Python: ast reads the same statements, the route and the name', () => {
    const sources = [BENIGN.path, ...HOSTILE].map((value) => text('Python', value, value));
    const script = [
      'import ast, json, sys',
      'out = []',
      'for src in json.load(sys.stdin):',
      '    tree = ast.parse(src)',
      '    route = [d.args[0].value for n in tree.body if isinstance(n, ast.FunctionDef) for d in n.decorator_list]',
      "    name = ast.literal_eval(src.split('\\n')[0].split(' of ', 1)[1])",
      "    out.append([[type(n).__name__ for n in tree.body], route, name, src.count('\\n')])",
      'print(json.dumps(out))',
    ].join('\n');
    const answer = execFileSync('python3', ['-c', script], { input: JSON.stringify(sources) });
    const [benign, ...hostile] = JSON.parse(answer.toString()) as [string[], string[], string, number][];
    hostile.forEach(([kinds, route, name, lines], i) => {
      const value = wellFormed(HOSTILE[i] ?? '');
      expect([kinds, route, name, lines]).toEqual([benign?.[0], [value], value, benign?.[3]]);
    });
  });

  it.skipIf(!available('javac'))(
    'Java: every variant compiles and runs, its route and name exactly the values',
    () => {
      const stubs = join(dir, 'com', 'standardwebhooks');
      mkdirSync(join(stubs, 'exceptions'), { recursive: true });
      writeFileSync(
        join(stubs, 'exceptions', 'WebhookVerificationException.java'),
        'package com.standardwebhooks.exceptions; public class WebhookVerificationException extends Exception {}',
      );
      writeFileSync(
        join(stubs, 'Webhook.java'),
        'package com.standardwebhooks; public class Webhook { public Webhook(String s) {} ' +
          'public void verify(String b, java.net.http.HttpHeaders h) throws com.standardwebhooks.exceptions.WebhookVerificationException {} }',
      );
      const prints = HOSTILE.map((value, i) => {
        writeFileSync(
          join(dir, `HeraldReceiver${i}.java`),
          text('Java', value, value).replace('class HeraldReceiver ', `class HeraldReceiver${i} `),
        );
        // The name is printed from its literal as the snippet's comment spells it.
        const name = /^\/\/.*?(".*")$/m.exec(text('Java', value, value))?.[1] ?? '""';
        return `p(HeraldReceiver${i}.ROUTE); p(${name});`;
      });
      writeFileSync(
        join(dir, 'Main.java'),
        'public class Main { static void p(String s) { System.out.println(s.codePoints().mapToObj(Integer::toString)' +
          `.collect(java.util.stream.Collectors.joining(","))); } public static void main(String[] a) { ${prints.join(' ')} } }`,
      );
      const sources = ['Main.java', ...HOSTILE.map((_, i) => `HeraldReceiver${i}.java`)];
      const env = { ...process.env, HERALD_WEBHOOK_TOKEN: 'whsec_x' };
      execFileSync('javac', ['-encoding', 'UTF-8', '-d', join(dir, 'out'), '-sourcepath', dir, ...sources], {
        cwd: dir,
        env,
      });
      const printed = execFileSync('java', ['-cp', join(dir, 'out'), 'Main'], { env })
        .toString()
        .trim()
        .split('\n');
      const codes = (value: string) => [...wellFormed(value)].map((c) => c.codePointAt(0)).join(',');
      expect(printed).toEqual(HOSTILE.flatMap((value) => [codes(value), codes(value)]));
    },
    60_000,
  );
});
