/**
 * M2's first camera by sight lines (issue 32): which orbit shows the rod, the frame arrows and
 * the rulers' labels, and the `first-view-clear` filter that re-draws a corridor no candidate
 * camera shows well (filters.ts). Apart from generate.ts so the filter can use it.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { qrotate } from '../../../sim/math.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { cylinderSeenPixels, firstClearCamera, frameArrowPoints, orbitCandidates, rulersOverlapping, shortArrows, unreadableRulers, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import { frameArrowPoint, shellBoxes } from './corridor.ts';
import type { M2Scene } from './scene.ts';

/**
 * The gap kept between a ruler's first and last label plates on screen, in picture heights: the
 * short ruler across the closed end read as two apart by the estimate's default 0.005 while the
 * drawn plates overlapped by two pixels and the renderer thinned it to one label (M2-L5-s17).
 */
const RULER_LABEL_GAP = 0.015;

/** The rod's pixels a first camera must show by sight lines: the view rule's 800 and a margin for the estimate. */
const ROD_MIN_SEEN_PIXELS = 900;

/**
 * The first camera: from 58° above at the fixed azimuth, or the nearest of a few other views
 * (steeper, or turned a little) from which the corridor's walls hide no stretch of the rod,
 * the frame arrows stand in the picture clear of the walls and long enough on screen, and each
 * ruler's neighbouring labels stay apart (issue 32: from 58° a wall hid the whole rod on some
 * seeds, and the short ruler across the closed end showed one label). By sight lines
 * (`tasks/kits/sight-lines.ts`).
 */
export function firstCamera(scene: M2Scene, base: CameraSpec, rulers: RulerSpec[], frame?: (azimuth: number, elevation: number) => CameraSpec, orbits?: CameraSpec[]): { camera: CameraSpec; unseen: SightPoint[] } {
  const boxes: SightBox[] = shellBoxes(scene.corridor).walls.map((b) => ({ center: [0, 1, 2].map((j) => (b.min[j] + b.max[j]) / 2) as Vec3, half: [0, 1, 2].map((j) => (b.max[j] - b.min[j]) / 2) as Vec3 }));
  const axis = qrotate(scene.start.q, [1, 0, 0]);
  // The rod's upper side along its length, where a camera above sees it.
  const points: SightPoint[] = [-0.45, -0.2, 0, 0.2, 0.45].map((k) => ({
    point: [0, 1, 2].map((j) => scene.start.p[j] + axis[j] * k * scene.rod.axisLength + (j === 1 ? 0.9 * scene.rod.radius : 0)) as Vec3,
    what: `rod at ${k}`,
  }));
  // And enough of it: the rod's silhouette on screen, times the share of a lattice spread across
  // it that the walls leave in sight, must come to the view rule's 800 pixels and a margin
  // (version 5: the earlier lattice along its top line took a rod half behind the near wall for
  // a whole one; M2-L5-s18 showed 378 pixels).
  const rod = { center: scene.start.p, axis, length: scene.rod.length, radius: scene.rod.radius };
  const thinRod = (camera: CameraSpec): SightPoint[] => (cylinderSeenPixels(camera, rod, boxes) >= ROD_MIN_SEEN_PIXELS ? [] : [{ point: scene.start.p, what: 'rod too small on screen' }]);
  const arrows = frameArrowPoint(scene.corridor);
  points.push(...frameArrowPoints(arrows, [0, 0, 0, 1], 0.1));
  // The near views first; then (version 5) steeper and more turned ones, tried only when none of
  // those shows the rod well enough: a long two-bend corridor framed whole leaves the rod small,
  // and from above the walls hide none of it (M2-L5-s18 showed 378 pixels from 58°).
  const near = orbitCandidates(base, [10, -10], [8, 16], [-10, 80]);
  const steep = [24, 30].flatMap((de) => [0, 10, -10, 20, -20].map((da) => ({ ...base, azimuth: base.azimuth + da, elevation: Math.min(86, base.elevation + de) })));
  const candidates = orbits ?? [...near, ...steep].map((c) => (frame ? frame(c.azimuth, c.elevation) : c));
  return firstClearCamera(candidates, points, boxes, 1, (camera) => [...unreadableRulers(camera, rulers, undefined, RULER_LABEL_GAP), ...rulersOverlapping(camera, rulers), ...shortArrows(camera, arrows, [0, 0, 0, 1], 0.1, 0.02), ...thinRod(camera)]);
}
