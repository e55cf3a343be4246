import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every link in the repository's Markdown stays inside the repository (issue 32: "No link leaves
 * the repository"), and every relative link resolves to a file or folder a clone has. Links are
 * `[text](target)`, `![alt](target)`, reference definitions `[label]: target`, autolinks
 * `<scheme:…>` and `href` / `src` attributes of inline HTML; text in code spans and fenced
 * blocks is not a link (a command line naming `http://127.0.0.1:8765/v1` is not one). Anchors
 * (`#…`) are not checked.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * URLs a Markdown file may link to. Empty: the documentation is read from a clone, offline, and
 * every page it needs is in the repository. A URL added here needs a reason beside it.
 */
const ALLOWED_URLS: ReadonlySet<string> = new Set<string>([]);

/** Skipped when walking without git: dependencies, run outputs, caches. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'runs']);

/**
 * The repository's files as a clone has them (tracked, plus new files not ignored, so a file
 * written but not yet committed counts), relative to the root with `/`. Without git, a walk.
 */
function repositoryFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    // A file deleted in the work tree but still in the index is gone for a reader.
    return out.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  } catch {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name)) walk(join(dir, e.name));
        } else files.push(relative(ROOT, join(dir, e.name)).split(sep).join('/'));
      }
    };
    walk(ROOT);
    return files;
  }
}

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Blanks out fenced code blocks and inline code spans, keeping line breaks (and so line numbers). */
function withoutCode(text: string): string {
  const lines = text.split('\n');
  let fence: string | null = null;
  const kept = lines.map((line) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null;
      return '';
    }
    if (m) {
      fence = m[1];
      return '';
    }
    return line;
  });
  // Inline code: a run of backticks up to the same run (may span lines within a paragraph).
  return kept.join('\n').replace(/(`+)([\s\S]*?)\1/g, (s) => s.replace(/[^\n]/g, ' '));
}

/** The link targets of a Markdown text, with their line numbers. */
export function markdownLinks(text: string): MarkdownLink[] {
  const body = withoutCode(text);
  const found: Array<{ index: number; target: string }> = [];
  const add = (index: number, target: string): void => {
    found.push({ index, target: target.trim() });
  };
  // [text](target "title") and ![alt](target): the target is <…> or runs to a space or the ')'.
  for (const m of body.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]*(?:\([^\s)]*\)[^\s)]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
    const raw = m[1];
    add(m.index, raw.startsWith('<') ? raw.slice(1, -1) : raw);
  }
  // Reference definitions: [label]: target
  for (const m of body.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) {
    const raw = m[1];
    add(m.index, raw.startsWith('<') ? raw.slice(1, -1) : raw);
  }
  // Autolinks: <https://…>, <mailto:…>
  for (const m of body.matchAll(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/g)) add(m.index, m[1]);
  // Inline HTML: href="…", src="…"
  for (const m of body.matchAll(/<[a-zA-Z][^>]*?\s(?:href|src)\s*=\s*("[^"]*"|'[^']*')/g)) add(m.index, m[1].slice(1, -1));
  const lineAt = (index: number): number => body.slice(0, index).split('\n').length;
  return found.sort((a, b) => a.index - b.index).map((f) => ({ line: lineAt(f.index), target: f.target }));
}

/** What is wrong with one link of `file` (a path relative to the root), or null. */
function problemOf(file: string, target: string, files: ReadonlySet<string>, folders: ReadonlySet<string>): string | null {
  if (target === '') return 'an empty link';
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(target) || target.startsWith('//')) {
    return ALLOWED_URLS.has(target) ? null : `leaves the repository (${target})`;
  }
  const path = target.replace(/[?#].*$/, '');
  if (path === '') return null; // an anchor in the same file
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return `is not a valid path (${target})`;
  }
  // A leading '/' is the repository's root (as on a forge); anything else is relative to the file.
  const resolved = decoded.startsWith('/') ? posix.normalize(decoded.slice(1)) : posix.normalize(posix.join(posix.dirname(file), decoded));
  if (resolved === '..' || resolved.startsWith('../')) return `leaves the repository (${target} → ${resolved})`;
  const key = resolved.replace(/\/+$/, '');
  if (key === '.' || key === '' || files.has(key) || folders.has(key)) return null;
  return `names nothing in the repository (${target} → ${key})`;
}

describe('links in Markdown files', () => {
  const all = repositoryFiles();
  const files = new Set(all);
  const folders = new Set<string>();
  for (const f of all) for (let d = posix.dirname(f); d !== '.'; d = posix.dirname(d)) folders.add(d);
  const markdown = all.filter((f) => f.toLowerCase().endsWith('.md') && !f.split('/').some((p) => SKIP_DIRS.has(p)));

  it('finds the Markdown files, the front page and docs/ among them', () => {
    expect(markdown).to.include('README.md');
    expect(markdown).to.include('AUTHORING.md');
    expect(markdown.filter((f) => f.startsWith('docs/')).length).to.be.greaterThan(3);
  });

  it('reads links the way Markdown does (and not in code)', () => {
    const sample = [
      'See [the design](docs/design.md#loop) and ![a picture](docs/images/p6.png "P6").',
      '`[not a link](nowhere.md)` and <https://example.org> and [ref]: ../outside.md',
      '```sh',
      'curl [x](http://127.0.0.1:8765/v1)',
      '```',
      '<img src="docs/images/m2.png"> [spaced](<a b.md>)',
    ].join('\n');
    expect(markdownLinks(sample)).to.deep.equal([
      { line: 1, target: 'docs/design.md#loop' },
      { line: 1, target: 'docs/images/p6.png' },
      { line: 2, target: 'https://example.org' },
      { line: 6, target: 'docs/images/m2.png' },
      { line: 6, target: 'a b.md' },
    ]);
    const defs = markdownLinks('[ref]: ../outside.md\n');
    expect(defs).to.deep.equal([{ line: 1, target: '../outside.md' }]);
    expect(problemOf('README.md', '../outside.md', files, folders)).to.match(/leaves the repository/);
    expect(problemOf('docs/x.md', '../README.md', files, folders)).to.equal(null);
    expect(problemOf('docs/x.md', 'https://rapier.rs', files, folders)).to.match(/leaves the repository/);
    expect(problemOf('README.md', 'docs/missing.md', files, folders)).to.match(/names nothing/);
  });

  it('every link stays in the repository and resolves to a file or folder in it', () => {
    const problems: string[] = [];
    let count = 0;
    for (const file of markdown) {
      for (const link of markdownLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        count++;
        const problem = problemOf(file, link.target, files, folders);
        if (problem) problems.push(`${file}:${link.line}: ${problem}`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
    expect(count, 'links found in all Markdown files').to.be.greaterThan(10);
  });

  it('the front page is short and shows one picture per category', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length, 'README.md lines').to.be.lessThan(150);
    const images = markdownLinks(readme).filter((l) => /\.png$/.test(l.target));
    expect(images.length).to.equal(6);
    // The set-up commands and why npm's notice about install scripts is harmless stay on it.
    expect(readme).to.include('npm ci && npm run main');
    expect(readme).to.include('npm ci && npm test');
    expect(readme).to.match(/allowScripts[\s\S]*harmless/);
  });
});
