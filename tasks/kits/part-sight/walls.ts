/**
 * Walls before lettered parts: how they are drawn, the search for one that hides what a tier
 * wants hidden while the part still shows, and the first view's duty to show every part and
 * every letter.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Rng } from '../../../core/rng.ts';
import type { PartsSight } from './parts.ts';
import { drawWall, sceneSight, wallClear, type TableLayout, type TableScene, type Wall, type WallPlan } from './table-scene.ts';

/** Walls tried per hidden part before the draw is given up. */
export const WALL_TRIES = 50;

/** The wall a hidden part gets: close and about as tall as a part. */
export const HIDING_WALL: WallPlan = { gap: [0.005, 0.03], height: [0.05, 0.1], halfWidth: [0.03, 0.065], shift: [-0.035, 0.035], yaw: [-25, 25] };

/** Share of its pixels (as without walls) every part must still show in the first view. */
export const FIRST_VIEW_SHOWN = 0.15;

/**
 * Searches a wall in front of `part` (drawn from `plan`, at most {@link WALL_TRIES}) that leaves
 * the part showing at least {@link FIRST_VIEW_SHOWN} of itself in the first view and makes
 * `hides` true of the part's sight; null when none does. The search looks at the part with its
 * own wall and letter stand alone: everything else only hides more, and the whole scene is read
 * again at the end.
 */
export function searchWall(
  rng: Rng,
  layout: TableLayout,
  pi: number,
  camera: CameraSpec,
  plan: WallPlan,
  hides: (sight: PartsSight) => boolean,
): Wall | null {
  const part = layout.parts[pi];
  const alone = sceneSight({ parts: [part], stands: layout.stands, walls: [], plates: [layout.plates[pi]] });
  const full = alone.seenPixels(camera, 0);
  for (let t = 0; t < WALL_TRIES; t++) {
    const wall = drawWall(rng, part, camera, plan);
    if (!wallClear(layout, wall)) continue;
    const sight = sceneSight({ parts: [part], stands: layout.stands, walls: [wall], plates: [layout.plates[pi]] });
    if (sight.seenPixels(camera, 0) < FIRST_VIEW_SHOWN * full) continue;
    if (hides(sight)) return wall;
  }
  return null;
}
/** A low wall before a part: it hides the lowest layer from low views. */
export const LOW_WALL: WallPlan = { gap: [0.005, 0.03], height: [0.02, 0.04], halfWidth: [0.03, 0.065], shift: [-0.035, 0.035], yaw: [-25, 25] };

/** Why the first view fails to show what the rules name (a part not at all, a letter plate not clearly), or null. */
export function firstViewProblem(sight: PartsSight, scene: TableScene, camera: CameraSpec): string | null {
  const open = sceneSight({ ...scene, walls: [] });
  const hiddenPart = scene.parts.findIndex((_, i) => sight.seenPixels(camera, i) < FIRST_VIEW_SHOWN * open.seenPixels(camera, i));
  if (hiddenPart >= 0) return `part ${scene.parts[hiddenPart].letter} shows less than ${FIRST_VIEW_SHOWN * 100} % of itself in the first view`;
  const unread = scene.plates.findIndex((_, i) => !sight.extraClear(camera, i));
  if (unread >= 0) return `the letter plate ${scene.plates[unread].letter} is not clearly seen in the first view`;
  return null;
}

