/**
 * The one layout every family folder follows: the same files by role, so a reader (or a new
 * family's author) finds the same thing in the same place in every family. Family-specific
 * modules may sit beside them, named for what they are (`pile.ts`, `track.ts`, …).
 *
 * - `family.ts`: the descriptor (id, version, category, title, summary, tiers) and the
 *   registration object assembled from the other files;
 * - `scene.ts`: the scene type an instance carries and the family's constants;
 * - `generate.ts`: `generate(family, seed, tier)`, a pure function, with the tools and rules text;
 * - `episode.ts`: `build(instance, world)` — tool handlers, rules at run time, the success test
 *   and the progress measure (and `worldOptions` where the family needs them);
 * - `solver.ts`: `reference(instance)`, the reference solution and how it was found;
 * - `filters.ts`: `SHORTCUT_FILTERS` and the family's `SIGHTLESS` strategies;
 * - `README.md`: every scene field in plain words, the move metric, the shortcuts considered.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORY_FOLDERS, type Category } from '../core/catalog.ts';

/** The files every family folder has, by role. */
export const FAMILY_ROLE_FILES = ['family.ts', 'scene.ts', 'generate.ts', 'episode.ts', 'solver.ts', 'filters.ts', 'README.md'] as const;

/** The `tasks/` folder of this package. */
export const TASKS_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The folder of a family, relative to `tasks/` (`puzzles/p6-peg-transfer`): the one folder of its
 * category named after its id. Null when there is none.
 */
export function familyFolder(family: { id: string; category: Category }, tasksDir: string = TASKS_DIR): string | null {
  const category = CATEGORY_FOLDERS[family.category];
  const dir = join(tasksDir, category);
  if (!existsSync(dir)) return null;
  const prefix = family.id.toLowerCase();
  const hit = readdirSync(dir).find((d) => d === prefix || d.startsWith(`${prefix}-`));
  return hit ? `${category}/${hit}` : null;
}
