/**
 * The documentation's links lead somewhere: every relative link of the README, CONTRIBUTING.md,
 * docs/, the packages' READMEs and the test vectors' README names a file of the repository (and,
 * into a Markdown page, one of its headings). And no file cites a note kept outside the
 * repository, which a reader of it cannot open.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './cli.ts';

const mdIn = (dir: string): string[] =>
  readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${dir}/${name}`);

/** The pages whose links are checked, by path from the root. */
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  'test-vectors/README.md',
  ...mdIn('docs'),
  ...readdirSync(join(root, 'packages'))
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(join(root, path))),
];

/** A page without its fenced code blocks and code spans, where brackets are not links. */
const prose = (text: string): string => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** Link targets of a page: `[text](target)` and `![alt](target)`. */
const linksOf = (text: string): string[] => [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors a Markdown page offers: its headings' (a repeated one numbered, as GitHub does) and `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** What is wrong with a relative link of `page`, or undefined. */
function brokenLink(page: string, target: string): string | undefined {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
  if (!file.startsWith(root)) return 'leaves the repository';
  if (!existsSync(file)) return 'no such file';
  if (anchor === undefined || !file.endsWith('.md') || statSync(file).isDirectory()) return undefined;
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? undefined : `no heading #${anchor} in ${relative(root, file)}`;
}

/** Notes kept outside the repository (named in parts, so that this file names neither). */
const outsideNotes = ['PROTOCOLS', 'TRAFFIC'].map((name) => `${name}.md`);

/** Names the walk skips: what .gitignore lists, and git's own. */
const ignored = new Set([
  '.git',
  ...readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
    .filter((line) => line && !line.startsWith('#') && !line.includes('*')),
]);

/** Every text file of the repository outside what is ignored, by path from the root. */
function* textFiles(dir = ''): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (ignored.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* textFiles(path);
    else if (entry.isFile() && !readFileSync(join(root, path)).subarray(0, 8192).includes(0)) yield path;
  }
}

describe('the documentation', () => {
  it('checks the pages it means to', () => {
    expect(pages).toEqual(expect.arrayContaining(['docs/cli.md', 'packages/codec/README.md', 'test-vectors/README.md']));
  });

  it.each(pages)('%s links only to files of the repository that exist', (page) => {
    const broken = linksOf(readFileSync(join(root, page), 'utf8'))
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => [target, brokenLink(page, target)] as const)
      .filter(([, why]) => why !== undefined);
    expect(broken).toEqual([]);
  });

  it('no file of the repository cites a note kept outside it', () => {
    const citing = [...textFiles()].filter((path) => {
      const text = readFileSync(join(root, path), 'utf8');
      return outsideNotes.some((note) => text.includes(note));
    });
    expect(citing).toEqual([]);
  });
});
