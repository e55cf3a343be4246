/**
 * M1 shortcut filters and sightless strategies: exactly one hole has the peg's outline, its
 * mirror image is among the decoys, and the peg starts well away from the fitting orientation.
 * See README.md for the shortcuts considered.
 */
import { qangle } from '../../../sim/math.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { mirror, oneSidedKey } from './polyomino.ts';
import { goalQuat, type M1Scene } from './scene.ts';

/** Why a scene is not a fair instance, or null (a generator-side shortcut filter). */
export function sceneProblem(scene: M1Scene): string | null {
  const own = oneSidedKey(scene.pegCells);
  const matches = scene.holes.filter((h) => oneSidedKey(h.cells) === own);
  if (matches.length !== 1 || scene.holes[scene.match]?.kind !== 'match') return `${matches.length} holes have the peg's outline; exactly one must`;
  if (!scene.holes.some((h) => h.kind === 'mirror' && oneSidedKey(h.cells) === oneSidedKey(mirror(scene.pegCells)))) return 'no hole is the mirror image of the peg';
  const err = (qangle(scene.start.q, goalQuat(scene)) * 180) / Math.PI;
  if (err < 29.9) return `the peg starts only ${err.toFixed(1)}° from the fitting orientation`;
  return null;
}

/** Cheap static checks every instance must pass (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<M1Scene>[] = [{ name: 'fair-layout', check: (inst) => sceneProblem(inst.scene) }];

/** M1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];
