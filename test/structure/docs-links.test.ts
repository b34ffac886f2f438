/**
 * The README and `docs/` stay inside the repository: every relative link resolves to a file of a clone
 * (never above its root, as `../shared/…` once did), and every `#anchor` names a heading of its target.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name.split(sep).join('/')}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingAnchor(match[1] ?? '')));
}

/** Link targets of a Markdown text (inline links and images), code blocks and code spans left out. */
function linksOf(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/** What is wrong with each link of `page` that stays inside the repository (external ones are skipped). */
function brokenLinks(page: string): string[] {
  const problems: string[] = [];
  for (const link of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
    if (/^[a-z]+:/.test(link)) continue;
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
    if (relative(ROOT, target).startsWith('..')) problems.push(`${link}: outside the repository`);
    else if (!existsSync(target)) problems.push(`${link}: no such file`);
    else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
      problems.push(`${link}: no heading with that anchor`);
    }
  }
  return problems;
}

describe('documentation links', () => {
  it.each(PAGES)('%s links only to files and headings of the repository', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('reads the pages of docs/ and its folders', () => {
    expect(PAGES).toContain('docs/design.md');
    expect(PAGES).toContain('docs/measurements/README.md');
  });

  it('finds a link that leaves the repository, a missing file and a missing anchor', () => {
    expect(headingAnchor('First organization, API key and account (in AWS)')).toBe(
      'first-organization-api-key-and-account-in-aws',
    );
    expect(linksOf('see [seed](../shared/seed/x.md), `[no](code)` and ![img](docs/a.png)')).toEqual([
      '../shared/seed/x.md',
      'docs/a.png',
    ]);
  });
});
