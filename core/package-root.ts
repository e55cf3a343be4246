/**
 * Where the package's own files are, the same whether SpaceAct runs from its TypeScript sources
 * (a checkout, through tsx) or from the compiled `dist/` folder of an installed package. Code that
 * finds a file beside itself must go through here: in `dist/` every module sits one folder deeper
 * than its source, and worker entries end in `.js` instead of `.ts`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`SpaceAct: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The package root: the folder holding SpaceAct's `package.json`, `bin/` and `fixtures/`. */
export const PACKAGE_ROOT: string = findRoot();

/** True when this process runs the compiled JavaScript in `dist/` rather than the TypeScript sources. */
export const RUNS_COMPILED: boolean = fileURLToPath(import.meta.url).endsWith('.js');

/**
 * The absolute path of the module `stem` (a path relative to the module whose `import.meta.url`
 * is `from`, without extension), with the extension that module has: `.ts` from sources, `.js`
 * from `dist/`. For worker entries that are started as processes, not imported.
 */
export function siblingModule(from: string, stem: string): string {
  const ext = fileURLToPath(from).endsWith('.js') ? '.js' : '.ts';
  return fileURLToPath(new URL(`${stem}${ext}`, from));
}
