/**
 * M2's first camera by sight lines (issue 32): which orbit shows the rod, the frame arrows and
 * the rulers' labels, and the camera search that the `first-view-clear` filter (filters.ts)
 * holds a draw to. Apart from generate.ts so the filter can use it.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { qrotate } from '../../../sim/math.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { framePoints } from '../../kits/part-sight/table-scene.ts';
import {
  cylinderSeenPixels,
  firstClearCamera,
  frameArrowPoints,
  labelPlates,
  orbitCandidates,
  rulerLabelPoints,
  rulersOverlapping,
  screenPoint,
  shortArrows,
  unreadableRulers,
  type SightBox,
  type SightPoint,
} from '../../kits/sight-lines.ts';
import { exitPlane, FIRST_AZIMUTH, frameArrowPoint, freeBoxes, goalPad, shellBoxes } from './corridor.ts';
import { WALL, type M2Scene } from './scene.ts';

/**
 * The gap kept between a ruler's first and last label plates on screen, in picture heights: the
 * short ruler across the closed end read as two apart by the estimate's default 0.005 while the
 * drawn plates overlapped by two pixels and the renderer thinned it to one label (M2-L5-s17).
 */
const RULER_LABEL_GAP = 0.015;

/**
 * The rod's pixels a first camera must show by sight lines: the view rule's 800 and a quarter
 * for the estimate (version 6). The estimate runs high: it takes the silhouette for a full
 * rectangle and counts a lattice point just over a wall's top as a whole strip of rod seen.
 * Over the 100-seed scan the seven smallest rods drawn showed 5 to 16 % fewer pixels than
 * estimated (M2-L3-s37: 874 drawn, 1,036 estimated), and with version 5's margin of 900
 * M2-L3-s228 drew 791.
 */
const ROD_MIN_SEEN_PIXELS = 1000;

/** Version 5's margin over the view rule's 800 rod pixels, kept by the re-draw rule. */
const ROD_MIN_SEEN_PIXELS_V5 = 900;

/** The elevation every camera search starts from, at {@link FIRST_AZIMUTH}. */
const FIRST_ELEVATION = 58;

/**
 * How a camera search frames and judges its candidates. The first camera follows
 * {@link FIRST_VIEW}; the re-draw rule keeps {@link VERSION_5} (see {@link frameableAtVersion5}).
 */
interface CameraSearch {
  /**
   * What of the goal pad the framing holds in the picture: the centre line of its first
   * rod length (version 5), or its whole footprint as drawn (version 6).
   */
  pad: 'centre-line' | 'footprint';
  /** Whether views turned further round than the near and steep ones are tried (version 6). */
  turned: boolean;
  /** Whether a candidate whose ruler label plates lie over the frame arrows is refused (version 6). */
  labelsOverArrows: boolean;
  /** The rod's pixels a candidate must show by the estimate. */
  rodPixels: number;
}

/**
 * Room kept round a label plate when asking what it covers, in picture heights (3 pixels at
 * 768): the estimate places plates to within a pixel or two of where they are drawn.
 */
const PLATE_PAD = 0.004;

/**
 * The points that fall under a ruler label's plate on screen, the plates sized as drawn (the
 * sight-lines kit's `pointsUnderLabels` sizes them at their largest, some 40 % wider than M2's
 * plates are drawn from its distances, and refused views whose arrows the picture shows clear).
 */
function pointsUnderPlates(camera: CameraSpec, rulers: readonly RulerSpec[], points: readonly SightPoint[]): SightPoint[] {
  const plates = labelPlates(camera, rulers, undefined, 'as-drawn');
  return points.filter((p) => {
    const at = screenPoint(camera, p.point);
    return at !== null && plates.some((l) => Math.abs(at[0] - l.centre[0]) < l.w / 2 + PLATE_PAD && Math.abs(at[1] - l.centre[1]) < l.h / 2 + PLATE_PAD);
  });
}

/** The search for the first camera of version 6. */
const FIRST_VIEW: CameraSearch = { pad: 'footprint', turned: true, labelsOverArrows: true, rodPixels: ROD_MIN_SEEN_PIXELS };

/** The search of version 5, which the re-draw rule keeps so that every seed keeps its world. */
const VERSION_5: CameraSearch = { pad: 'centre-line', turned: false, labelsOverArrows: false, rodPixels: ROD_MIN_SEEN_PIXELS_V5 };

/**
 * A camera from `azimuth`, `elevation` framing the corridor's shell, the pad, the arrows and the
 * rulers' label anchors in 86 % of the picture (the part-sight kit's `framePoints`): closer than
 * the sphere round them all, so the rod, a few per cent of the corridor's length across, shows
 * at the view rule's size (issue 32). The open space above an upward exit (L7's shaft, which has
 * no pad) is left to the agent's zoom.
 */
function framing(scene: M2Scene, rulers: readonly RulerSpec[], pad: CameraSearch['pad']): (azimuth: number, elevation: number) => CameraSpec {
  const c = scene.corridor;
  const shell = freeBoxes(c).map((x) => ({ min: x.min.map((v) => v - WALL) as Vec3, max: x.max.map((v) => v + WALL) as Vec3 }));
  const drawn = goalPad(scene);
  if (drawn && pad === 'footprint') {
    // The pad as the episode draws it (version 6: the centre line stopped 3 cm short of the
    // pad's far edge and half a corridor's width inside its corners, and on five seeds of 108
    // at L1 and L3 a corner ran off the picture's bottom, M2-L1-s27).
    shell.push({ min: [drawn.centre[0] - drawn.half[0], 0, drawn.centre[2] - drawn.half[2]], max: [drawn.centre[0] + drawn.half[0], 0, drawn.centre[2] + drawn.half[2]] });
  } else if (drawn) {
    const { point, out } = exitPlane(c);
    const length = scene.rod.length;
    shell.push({ min: [point[0] + Math.min(0, out[0]) * length, 0, point[2] + Math.min(0, out[2]) * length], max: [point[0] + Math.max(0, out[0]) * length, 0, point[2] + Math.max(0, out[2]) * length] });
  }
  const arrows = frameArrowPoint(c);
  // The arrows run from their origin toward +x, +y and +z.
  shell.push({ min: [arrows[0] - 0.02, 0, arrows[2] - 0.02], max: [arrows[0] + 0.14, 0.14, arrows[2] + 0.14] });
  const points: Vec3[] = shell.flatMap((b) => Array.from({ length: 8 }, (_, k) => [k & 1 ? b.max[0] : b.min[0], k & 2 ? b.max[1] : b.min[1], k & 4 ? b.max[2] : b.min[2]] as Vec3));
  points.push(...rulerLabelPoints(rulers).map((p) => p.point));
  return (azimuth, elevation) => framePoints(points, azimuth, elevation, 0.86);
}

/**
 * A camera search: from 58° above at the fixed azimuth, or the nearest of the other views
 * from which the corridor's walls hide no stretch of the rod, the rod shows large enough, the
 * frame arrows stand in the picture clear of the walls and long enough on screen, and each
 * ruler's neighbouring labels stay apart (issue 32: from 58° a wall hid the whole rod on some
 * seeds, and the short ruler across the closed end showed one label). By sight lines
 * (`tasks/kits/sight-lines.ts`). With no clear candidate, the one with the fewest problems and
 * what it fails to show.
 */
function searchCamera(scene: M2Scene, rulers: readonly RulerSpec[], search: CameraSearch, orbits?: CameraSpec[]): { camera: CameraSpec; unseen: SightPoint[] } {
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
  const thinRod = (camera: CameraSpec): SightPoint[] => (cylinderSeenPixels(camera, rod, boxes) >= search.rodPixels ? [] : [{ point: scene.start.p, what: 'rod too small on screen' }]);
  const arrows = frameArrowPoint(scene.corridor);
  const arrowPoints = frameArrowPoints(arrows, [0, 0, 0, 1], 0.1);
  points.push(...arrowPoints);
  // Ruler labels draw over everything, so an arrow whose head or shaft falls under a label's
  // plate is hidden though no wall stands in front of it (version 6: from the steep, turned view
  // version 5 chose, the long ruler's "20 cm" and "30 cm" plates lay over the +y and +z arrows,
  // M2-L5-s54).
  const arrowsUnderLabels = (camera: CameraSpec): SightPoint[] => (search.labelsOverArrows ? pointsUnderPlates(camera, rulers, arrowPoints) : []);
  const base: CameraSpec = { azimuth: FIRST_AZIMUTH, elevation: FIRST_ELEVATION, distance: 1, target: [0, 0, 0] };
  // The near views first; then (version 5) steeper and more turned ones, tried only when none of
  // those shows the rod well enough: a long two-bend corridor framed whole leaves the rod small,
  // and from above the walls hide none of it (M2-L5-s18 showed 378 pixels from 58°).
  const near = orbitCandidates(base, [10, -10], [8, 16], [-10, 80]);
  const steep = [24, 30].flatMap((de) => [0, 10, -10, 20, -20].map((da) => ({ ...base, azimuth: base.azimuth + da, elevation: Math.min(86, base.elevation + de) })));
  // Last (version 6), views from further round, the nearest turn first. Label plates are drawn
  // at a fixed size in pixels, so when a long corridor is framed whole from far off they cover
  // more floor round their ruler: from near the fixed azimuth the plates of the ruler beside the
  // first stretch can lie over the arrows standing beside it, and the short ruler across the
  // closed end can shrink to one label (M2-L5-s54, every near and steep view). Seen from the
  // side or the far end, the plates fall clear of the arrows.
  const turned = search.turned ? [30, -30, 45, -45, 60, -60, 90, -90, 120, -120, 150, -150, 180].flatMap((da) => [0, -8, 8].map((de) => ({ ...base, azimuth: base.azimuth + da, elevation: base.elevation + de }))) : [];
  const frame = framing(scene, rulers, search.pad);
  const candidates = orbits ?? [...near, ...steep, ...turned].map((c) => frame(c.azimuth, c.elevation));
  return firstClearCamera(candidates, points, boxes, 1, (camera) => [
    ...unreadableRulers(camera, rulers, undefined, RULER_LABEL_GAP),
    ...rulersOverlapping(camera, rulers),
    ...shortArrows(camera, arrows, [0, 0, 0, 1], 0.1, 0.02),
    ...arrowsUnderLabels(camera),
    ...thinRod(camera),
  ]);
}

/**
 * The first camera (version 6): the nearest view to 58° above at the fixed azimuth that shows
 * the rod, the arrows and two labels of each ruler, and frames the pad whole; with none, the
 * view with the fewest problems, and what it fails to show.
 */
export function firstCamera(scene: M2Scene, rulers: readonly RulerSpec[]): { camera: CameraSpec; unseen: SightPoint[] } {
  return searchCamera(scene, rulers, FIRST_VIEW);
}

/** What `camera` fails to show by the first camera's checks (none: the view is clear). */
export function unseenFrom(scene: M2Scene, rulers: readonly RulerSpec[], camera: CameraSpec): SightPoint[] {
  return searchCamera(scene, rulers, FIRST_VIEW, [camera]).unseen;
}

/**
 * What the best camera of version 5's search fails to show (none: that search framed the
 * draw). The re-draw rule keeps this search although the first camera has moved on, so that a
 * draw version 5 kept is kept and one it re-drew is re-drawn: every seed has the world it had.
 * Version 6's wider search could frame some draws version 5 re-drew (M2-L5-s4), and judging by
 * it would have swapped their worlds.
 */
export function unseenAtVersion5(scene: M2Scene, rulers: readonly RulerSpec[]): SightPoint[] {
  return searchCamera(scene, rulers, VERSION_5).unseen;
}
