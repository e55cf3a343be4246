/**
 * M4 generator: a pure function of (family, tier, seed). It draws the wire's course (a riser out
 * of the base, then one bend, two bends in different planes, or turns of a helix, and a straight
 * free end), rounds its corners, sizes the ring for the tier's clearance and threads it on the
 * riser. Every random choice comes from `redrawRng`; numbers are rounded for JSON.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { qaxisAngle, yawQuat } from '../../../sim/math.ts';
import type { Quat, RulerSpec, Vec3 } from '../../../sim/types.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { firstClearCamera, frameArrowPoints, orbitCandidates, rulerLabelPoints, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { drawScene } from './draw.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { ARROWS_AT, BASE_HALF, RING_HALF, RING_PIECES, TIERS, WIRE_RADIUS, WIRE_STEP, type M4Scene, type M4TierSettings, M4_LEVERS } from './scene.ts';
import { m4Tools } from './tools.ts';

function rulesText(s: M4Scene, t: M4TierSettings): string {
  const shape = t.shape;
  const course = shape === 'bend' ? 'rises from a base block and bends over once' : shape === 'twist' ? 'rises from a base block and bends twice, in two different planes' : 'rises from a base block and winds round in a helix';
  return [
    `A stiff wire ${course}, ending in a free end. You hold a ring threaded on it (the orange ring); its hole is only a little wider than the wire, so the ring must be kept square to the wire and centred on it through every bend.`,
    'Goal: work the ring along the wire and off its free end. The episode ends as soon as the ring is off.',
    'The ring can only come off at the free end: a move that would pass the ring through the wire, or lift it off anywhere else, is refused like a collision (a topology rule of the world).',
    "Frame: the red, green and blue arrows beside the base show the working frame's +x, +y and +z axes; +y is straight up." +
      (s.frameYawDeg === 0 ? ' In the first view +x points to the right and +z toward you.' : ' This frame is NOT lined up with the base: it is turned about the vertical; read its directions from the arrows.'),
    "Measuring: a ruler runs along the floor at the base's front edge and another stands at its front-left corner, with ticks every 10 mm and labels every 100 mm; read the wire's course and the ring's size from them.",
    "Tools: translate(dx_m, dy_m, dz_m) moves the ring in a straight line; rotate(axis, angle_deg) turns it about its centre; move(…) does both at once at steady rates — a short screw-like move follows a curving wire. All are relative to where the ring is now.",
    'Every motion is swept along its whole path. If the ring would touch the wire or the base, leave the wire other than at its free end, or leave the workspace, the motion is stopped and rolled back and the rest of that turn is not run.',
    `Budget: ${t.actions} actions in all (every translate, rotate or move counts, refused and rolled-back ones included; looking around with the camera does not); the episode ends when they are spent.`,
  ].join('\n');
}

/**
 * The first camera: from the front, 25° right and 24° above, or the nearest of a few orbits of it
 * from which, by sight lines past the wire (a box round each straight stretch), every ruler label
 * keeps its foot or anchor in sight and the frame arrows stand in the picture, clear of the wire
 * (issue 32: a helix passing before the upright ruler hid its "20 cm" on two seeds in twenty).
 * The rules' "in the first view +x points to the right and +z toward you" holds for each.
 */
function firstCamera(scene: M4Scene, base: CameraSpec, rulers: RulerSpec[], frame: Quat): CameraSpec {
  const pts = scene.wire.points;
  const boxes: SightBox[] = [];
  for (let k = 0; k + 1 < pts.length; k++) {
    const [a, b] = [pts[k], pts[k + 1]];
    const d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const len = Math.hypot(d[0], d[1], d[2]);
    if (len < 1e-9) continue;
    // Turn +x onto the stretch's direction.
    const axis: Vec3 = [0, -d[2], d[1]];
    const n = Math.hypot(axis[0], axis[1], axis[2]);
    const q: Quat = n < 1e-9 ? (d[0] > 0 ? [0, 0, 0, 1] : [0, 0, 1, 0]) : qaxisAngle([axis[0] / n, axis[1] / n, axis[2] / n], Math.acos(Math.max(-1, Math.min(1, d[0] / len))));
    boxes.push({ center: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], half: [len / 2 + WIRE_RADIUS, WIRE_RADIUS, WIRE_RADIUS], q });
  }
  const points: SightPoint[] = [...rulerLabelPoints(rulers), ...frameArrowPoints(ARROWS_AT, frame, 0.05)];
  return firstClearCamera(orbitCandidates(base, [8, -8, 16, -16], [8, -8, 16]), points, boxes).camera;
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<M4Scene> {
  const t = tierSettings('M4', TIERS, tier, lever, M4_LEVERS);
  // A lever study draws from its tier's stream (L5's).
  const scene = drawScene(tier, redrawRng('M4', tier, seed, attempt), t);
  const pts = scene.wire.points;
  // Frame the wire, the base, the arrows and the rulers on the floor.
  const extra: Vec3[] = [[-BASE_HALF[0] - 0.01, 0, BASE_HALF[2] + 0.12], [BASE_HALF[0] + 0.14, 0, BASE_HALF[2] + 0.1], [-BASE_HALF[0], 0, -BASE_HALF[2]]];
  const lo = [0, 1, 2].map((j) => Math.min(...pts.map((p) => p[j]), ...extra.map((p) => p[j])));
  const hi = [0, 1, 2].map((j) => Math.max(...pts.map((p) => p[j]), ...extra.map((p) => p[j])));
  const centre: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const radius = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2 + 0.04;
  const front = BASE_HALF[2] + 0.004;
  const rulers: RulerSpec[] = [
    { from: [-BASE_HALF[0], 0.002, front], to: [BASE_HALF[0] + 0.1, 0.002, front], tickDir: [0, 0, 1], minor: 0.01, major: 0.1 },
    { from: [-BASE_HALF[0] - 0.004, 0, front], to: [-BASE_HALF[0] - 0.004, roundTo(hi[1] + 0.02, 3), front], tickDir: [-1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const frame = yawQuat(scene.frameYawDeg);
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Helical wire',
    rules: rulesText(scene, t),
    tools: heldPartToolSpecs(m4Tools(frame)),
    camera: {
      initial: firstCamera(scene, { azimuth: 25, elevation: 24, distance: roundTo(radius / Math.sin((20 * Math.PI) / 180), 3), target: [roundTo(centre[0], 3), roundTo(centre[1], 3), roundTo(centre[2], 3)] }, rulers, frame),
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    budgets: { turns: 100, actionsPerTurn: 5, actions: t.actions },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: {
      plan: 'Keep the ring square to the wire and centred on it: slide it up the riser, and through each bend or turn use short moves that advance the ring along the wire while turning it to stay square to the wire (for a helix, a screw-like move per part of a turn); at the free end, push it off along the end.',
    },
  });
}

/** The instance of (seed, tier, lever): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<M4Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
