/**
 * A digest of the code that decides `verify`'s verdicts: what a queue worker compares with its
 * coordinator's, and what a verification checkpoint is tied to.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.ts';

const ROOT = PACKAGE_ROOT;
/** The folders whose code decides a verdict. */
const CODE_DIRS = ['core', 'sim', 'render', 'solvers', 'tasks', 'agents', 'verify'];
let digest: string | null = null;

/**
 * A digest of the code that decides verdicts (every file under the project's code folders, by
 * path and content) and of the locked dependencies: two checkouts with the same digest give
 * the same records.
 */
export function checkoutDigest(): string {
  if (digest) return digest;
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (/\.(ts|js|mjs|json|tmpl)$/.test(name)) h.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const d of CODE_DIRS) walk(join(ROOT, d));
  try {
    h.update(readFileSync(join(ROOT, 'package-lock.json')));
  } catch {
    // An installed package has no lock file: its version pins it.
  }
  return (digest = h.digest('hex'));
}
