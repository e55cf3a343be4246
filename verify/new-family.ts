import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpaceActError } from '../core/errors.ts';
import { CATEGORY_FOLDERS, FAMILY_ID_PATTERN, isCategory } from '../core/catalog.ts';
import { FAMILY_ROLE_FILES } from '../tasks/family-layout.ts';

const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(dirname(fileURLToPath(import.meta.url)), 'templates');

/** Options of {@link createFamily}. */
export interface NewFamilyOptions {
  /** Family id, e.g. `P7`: the category letter and a number. */
  id: string;
  /** One of B, P, M, A, V, T; must match the id's letter. */
  category: string;
  /** Short title (letters, digits, spaces and `,.()-`); default "New family". */
  title?: string;
  /** Repository root to write into (default this package). */
  root?: string;
  /** Add the family to `tasks/registry.ts` (default true). */
  register?: boolean;
}

/** What {@link createFamily} wrote. */
export interface NewFamilyResult {
  id: string;
  /** The family folder, relative to the root. */
  dir: string;
  /** Files written, relative to the root. */
  files: string[];
  exportName: string;
  /** The import line for `tasks/registry.ts`. */
  importLine: string;
  /** Whether `tasks/registry.ts` was edited (otherwise add the import and the array entry by hand). */
  registered: boolean;
}

/** A folder-name slug of a title: lower case, words joined by `-`. */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/**
 * Adds a family to the source text of `tasks/registry.ts`: its import after the last family
 * import, and its export name at the end of the `FAMILIES` array. Throws `invalid-state`
 * when the file does not have that shape or already names the family.
 */
export function registerInSource(source: string, importLine: string, exportName: string): string {
  if (source.includes(importLine) || new RegExp(`\\b${exportName}\\b`).test(source)) {
    throw new SpaceActError('invalid-state', `tasks/registry.ts already names ${exportName}`, { exportName });
  }
  const lines = source.split('\n');
  let lastImport = -1;
  lines.forEach((l, i) => {
    if (/^import .* from '\.\/.*\/family\.ts';$/.test(l)) lastImport = i;
  });
  if (lastImport < 0) lines.forEach((l, i) => {
    if (/^import /.test(l)) lastImport = i;
  });
  const start = source.indexOf('export const FAMILIES');
  const open = start < 0 ? -1 : source.indexOf('[', source.indexOf('=', start));
  const close = open < 0 ? -1 : source.indexOf(']', open);
  if (lastImport < 0 || open < 0 || close < 0) {
    throw new SpaceActError('invalid-state', 'tasks/registry.ts does not have the expected shape (imports, then `export const FAMILIES = [ … ]`)');
  }
  const inner = source.slice(open + 1, close);
  const trimmed = inner.replace(/[\s,]+$/, '');
  const multiline = inner.includes('\n');
  const entry = trimmed.length === 0 ? exportName : multiline ? `${trimmed},\n  ${exportName},\n` : `${trimmed}, ${exportName}`;
  const withEntry = source.slice(0, open + 1) + entry + source.slice(close);
  const out = withEntry.split('\n');
  out.splice(lastImport + 1, 0, importLine);
  return out.join('\n');
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/__([A-Z]+)__/g, (m, k: string) => values[k] ?? m);
}

/**
 * Writes a new family folder from the template — exactly the role files every family has
 * ({@link FAMILY_ROLE_FILES}: family.ts, scene.ts, generate.ts, episode.ts, solver.ts,
 * filters.ts, README.md) — holding a small, real task (slide a block over a grid onto a pad)
 * that passes the check-suite as it is, ready to be turned into the family it is meant to be
 * (see AUTHORING.md). Registers it in
 * `tasks/registry.ts` unless told not to. Checks everything first: on an error nothing is written.
 */
export function createFamily(opts: NewFamilyOptions): NewFamilyResult {
  const root = opts.root ?? PACKAGE_ROOT;
  const id = String(opts.id ?? '').toUpperCase();
  const category = String(opts.category ?? '').toUpperCase();
  // The id first: without --category the CLI takes the category from the id's letter.
  if (!FAMILY_ID_PATTERN.test(id)) throw new SpaceActError('invalid-argument', `"${opts.id}" is not a family id (a letter and a number, e.g. ${isCategory(category) ? category : 'P'}7)`, { id: opts.id });
  if (!isCategory(category)) {
    throw new SpaceActError('invalid-argument', `--category must be one of B, P, M, A, V, T (got "${opts.category}")`, { category: opts.category });
  }
  if (id[0] !== category) throw new SpaceActError('invalid-argument', `family ${id} must start with its category letter ${category}`, { id, category });
  const title = (opts.title ?? 'New family').trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9 ,.()-]{0,59}$/.test(title)) {
    throw new SpaceActError('invalid-argument', 'the title must be 1–60 letters, digits, spaces or ,.()- characters', { title });
  }
  const slug = slugify(title) || 'family';
  const folder = CATEGORY_FOLDERS[category];
  const dirName = `${id.toLowerCase()}-${slug}`;
  const dir = join(root, 'tasks', folder, dirName);
  const tasksDir = join(root, 'tasks');
  for (const f of Object.values(CATEGORY_FOLDERS)) {
    const catDir = join(tasksDir, f);
    if (!existsSync(catDir)) continue;
    const clash = readdirSync(catDir).find((d) => d === id.toLowerCase() || d.startsWith(`${id.toLowerCase()}-`));
    if (clash) throw new SpaceActError('invalid-state', `family ${id} already has a folder: tasks/${f}/${clash}`, { id });
  }
  const exportName = id.toLowerCase() + slug.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  const importLine = `import { ${exportName} } from './${folder}/${dirName}/family.ts';`;
  const registryFile = join(tasksDir, 'registry.ts');
  const register = opts.register ?? true;
  let registry: string | null = null;
  if (register) {
    if (!existsSync(registryFile)) throw new SpaceActError('io', `no tasks/registry.ts under ${root}`);
    const source = readFileSync(registryFile, 'utf8');
    if (new RegExp(`id: '${id}'`).test(source)) throw new SpaceActError('invalid-state', `tasks/registry.ts already registers ${id}`, { id });
    registry = registerInSource(source, importLine, exportName);
  }
  const values = { ID: id, TITLE: title, CATEGORY: category, EXPORT: exportName, SCENE: `${id}Scene` };
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const name of FAMILY_ROLE_FILES) {
    const file = join(dir, name);
    writeFileSync(file, fill(readFileSync(join(TEMPLATES, `${name}.tmpl`), 'utf8'), values));
    files.push(relative(root, file));
  }
  if (registry !== null) writeFileSync(registryFile, registry);
  return { id, dir: relative(root, dir), files, exportName, importLine, registered: registry !== null };
}
