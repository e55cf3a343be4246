/**
 * Every import in the repository's TypeScript, as the compiler parses it: the module
 * specifiers TypeScript itself collects for each source file (`import`/`export … from`,
 * `import type`, dynamic `import('…')` with a literal, and `import('…')` types), with the
 * file and line they are written on. Read through TypeScript's own program API (the
 * `typescript/unstable/sync` client of the installed compiler), so nothing is parsed by hand.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

/** The files of a cycle of runtime imports, each importing the next and the last the first. */
export function runtimeCycles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const adj = new Map<string, string[]>();
  for (const e of edges) if (e.to && !e.typeOnly) adj.set(e.from, [...(adj.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components; a component of two or more files holds a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of adj.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out;
}

/** The repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One import: where it is written and what it names. */
export interface ImportEdge {
  /** The importing file, relative to the repository root (`agents/runner.ts`). */
  from: string;
  /** 1-based line of the specifier. */
  line: number;
  /** The specifier as written (`../core/errors.ts`, `node:fs`, `spaceact/verify`). */
  specifier: string;
  /** The imported file relative to the root, for relative and self-package specifiers; null for packages. */
  to: string | null;
  /**
   * Erased when compiled: `import type`, `export type … from`, an import whose every named
   * binding is `type`, or an `import('…')` type. Such an edge still counts for the layers.
   */
  typeOnly: boolean;
}

/** The syntax around a module specifier, as far as the type-only test needs it. */
interface SpecifierParent {
  kind: number;
  isTypeOnly?: boolean;
  importClause?: { isTypeOnly?: boolean; name?: unknown; namedBindings?: { elements?: Array<{ isTypeOnly?: boolean }> } };
}

function isTypeOnly(parent: SpecifierParent | undefined): boolean {
  if (!parent) return false;
  if (parent.kind === SyntaxKind.ImportType || parent.kind === SyntaxKind.LiteralType) return true;
  if (parent.kind === SyntaxKind.ExportDeclaration) return parent.isTypeOnly === true;
  if (parent.kind !== SyntaxKind.ImportDeclaration) return false;
  const clause = parent.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const elements = clause.namedBindings?.elements;
  return !clause.name && Array.isArray(elements) && elements.length > 0 && elements.every((e) => e.isTypeOnly === true);
}

/** The TypeScript files of the repository (node_modules, .git and run folders left out), relative to the root. */
export function repositoryTypeScript(root: string = REPO_ROOT): string[] {
  const out: string[] = [];
  const skip = new Set(['node_modules', '.git', 'runs']);
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (skip.has(e.name)) continue;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (/\.(m|c)?tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/** Package names this repository publishes, mapped to the file each resolves to. */
const SELF_EXPORTS: Record<string, string> = { spaceact: 'index.ts', 'spaceact/verify': 'verify/index.ts' };

/**
 * The import edges of every file of `tsconfig.json`'s program that lies in the repository,
 * and the program's file list (so a caller can check no repository file is left out of it).
 */
export function importGraph(root: string = REPO_ROOT): { files: string[]; edges: ImportEdge[] } {
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProject: join(root, 'tsconfig.json') });
    const project = snapshot.getProjects()[0];
    const files: string[] = [];
    const edges: ImportEdge[] = [];
    for (const name of project.program.getSourceFileNames()) {
      const rel = relative(root, name);
      if (rel.startsWith('..') || rel.split('/').includes('node_modules')) continue;
      files.push(rel);
      const source = project.program.getSourceFile(name);
      if (!source) continue;
      for (const node of source.imports) {
        const specifier = (node as unknown as { text: string }).text;
        let to: string | null = null;
        if (specifier.startsWith('.')) to = normalize(join(dirname(rel), specifier));
        else if (Object.hasOwn(SELF_EXPORTS, specifier)) to = SELF_EXPORTS[specifier];
        const parent = (node as unknown as { parent?: SpecifierParent }).parent;
        edges.push({ from: rel, line: source.getLineAndCharacterOfPosition(node.end).line + 1, specifier, to, typeOnly: isTypeOnly(parent) });
      }
    }
    return { files: files.sort(), edges };
  } finally {
    api.close();
  }
}
