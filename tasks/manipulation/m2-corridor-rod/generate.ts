/**
 * M2 generator: a pure function of (family, tier, seed). It draws the corridor (width, ceiling,
 * turn directions, segment lengths), the rod's radius, and sets the rod's length a stated slack
 * below the critical length of the corridor's tightest bend — so a rod a few per cent longer
 * provably cannot pass (`filters.ts`). Every random choice comes from `redrawRng`.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { alongQuat } from './corridor.ts';
import { firstCamera } from './view.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { actionBudget, bendCriticals, flatCritical, segmentDirection, START_GAP, TIERS, WALL, type M2Scene } from './scene.ts';
import { M2_TOOLS } from './tools.ts';

const HORIZONTAL: Vec3[] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 0, 1],
  [0, 0, -1],
];

/** Turn a horizontal direction left (+1) or right (−1) about +y. */
function turn(d: Vec3, side: number): Vec3 {
  // A quarter turn about +y: (x, z) → (z, −x) counter-clockwise from above.
  return side > 0 ? [d[2], 0, -d[0]] : [-d[2], 0, d[0]];
}

function drawScene(tier: Tier, rng: Rng): M2Scene {
  const t = TIERS[tier];
  // Continuous draws (kept to 0.1 mm): no grid of widths or radii a prober could enumerate.
  const width = roundTo(rng.range(0.1, 0.13), 4);
  const radius = roundTo(rng.range(0.008, 0.012), 4);
  const slack = roundTo(rng.range(t.slack[0], t.slack[1]), 5);
  const flat = flatCritical(width, width, radius);
  const room = t.tiltRoom[0] + (t.tiltRoom[1] - t.tiltRoom[0]) * rng.next();
  const height = roundTo(2 * radius + room * flat, 4);
  // Directions: a horizontal start, turned left or right; the second bend turns again
  // (L5, either way) or upward (L7).
  const d0 = rng.pick(HORIZONTAL);
  const d1 = turn(d0, rng.pick([1, -1]));
  const dirs: Vec3[] = [d0, d1];
  if (t.bends === 2) dirs.push(t.verticalSecond ? [0, 1, 0] : turn(d1, rng.pick([1, -1])));
  // The rod's length from the tightest bend (built with provisional segment lengths; the
  // critical length does not depend on them).
  const mid = height / 2;
  const provisional: Vec3[] = [[0, mid, 0]];
  for (const d of dirs) {
    const p = provisional[provisional.length - 1];
    provisional.push([p[0] + d[0], p[1] + d[1], p[2] + d[2]]);
  }
  const criticalAxis = roundTo(Math.min(...bendCriticals({ width, height, wall: WALL, points: provisional }, radius)), 6);
  const axisLength = roundTo(criticalAxis * (1 - slack), 4);
  const length = roundTo(axisLength + 2 * radius, 4);
  // Segment lengths (centre line): the first holds the rod with room to spare, every later one
  // is longer than the rod, so each bend is passed on its own.
  const lengths = dirs.map((_, i) => roundTo((i === 0 ? length + START_GAP + 0.06 : length + width + 0.06) + rng.range(0, 0.08), 4));
  const points: Vec3[] = [[0, mid, 0]];
  dirs.forEach((d, i) => {
    const p = points[points.length - 1];
    points.push([roundTo(p[0] + d[0] * lengths[i], 6), roundTo(p[1] + d[1] * lengths[i], 6), roundTo(p[2] + d[2] * lengths[i], 6)]);
  });
  // Centre the corridor's footprint on the origin (x, z).
  const xs = points.map((p) => p[0]);
  const zs = points.map((p) => p[2]);
  const cx = roundTo((Math.min(...xs) + Math.max(...xs)) / 2, 4);
  const cz = roundTo((Math.min(...zs) + Math.max(...zs)) / 2, 4);
  const centred = points.map((p): Vec3 => [roundTo(p[0] - cx, 6), p[1], roundTo(p[2] - cz, 6)]);
  // The rod lies along the first segment, its far end START_GAP from the closed end, off the
  // centre line by up to a third of the free width.
  const side = turn(d0, 1);
  const lateral = roundTo((rng.next() * 2 - 1) * ((width - 2 * radius) / 3), 4);
  const along = START_GAP + length / 2;
  const p0 = centred[0];
  const start = {
    p: [roundTo(p0[0] + d0[0] * along + side[0] * lateral, 6), roundTo(mid, 6), roundTo(p0[2] + d0[2] * along + side[2] * lateral, 6)] as Vec3,
    q: alongQuat(d0),
  };
  return { corridor: { width, height, wall: WALL, points: centred }, rod: { radius, axisLength, length }, start, criticalAxis, slack, tightness: t.tightness };
}

function rulesText(tier: Tier): string {
  const t = TIERS[tier];
  const bends = t.bends === 1 ? 'one right-angle bend' : t.verticalSecond ? 'two right-angle bends, the second turning upward' : 'two right-angle bends';
  return [
    `You hold a rod (the orange part) with rounded ends. It lies inside a closed corridor with ${bends}; the corridor's walls are grey and its ceiling is see-through.`,
    'Goal: carry the rod out of the corridor\'s open end, until the whole rod is outside it. The episode ends as soon as it is.',
    `The rod is only a little shorter than the longest rod that can get round the corridor's tightest bend, so it must be swung round each corner with care${t.tiltRoom[0] > 0.1 ? ', using the room between floor and ceiling to tilt it' : ''}.`,
    'Frame: the red, green and blue arrows at the corridor\'s closed end show the +x, +y and +z axes of the frame the tools use; +y is straight up.',
    'Measuring: every size and position is read from the picture. A ruler runs along the top of the wall beside the first stretch of corridor, from its closed end; a second runs across the top of the closed end\'s wall, from the inside of one side wall to the inside of the other. The height inside is read from the open ends of the walls against the rulers (orbit and zoom help).',
    'Tools: translate(dx_m, dy_m, dz_m) moves the rod in a straight line; rotate(axis, angle_deg) turns it about its midpoint; move(dx_m, dy_m, dz_m, axis, angle_deg) does both at once at steady rates (a swing round a corner). All are relative to where the rod is now.',
    'Every motion is swept along its whole path. If the rod would touch a wall, the floor or the ceiling, or leave the workspace, the motion is stopped and rolled back (the rod stays where it was) and the rest of that turn is not run. Nothing falls: the rod stays where you leave it.',
    `Budget: ${actionBudget(tier)} actions in all. Every translate, rotate and move counts, also one that is refused and rolled back; when they are used up the episode ends.`,
  ].join('\n');
}

function planText(s: M2Scene): string {
  const n = s.corridor.points.length - 2;
  return (
    `Slide the rod along the first stretch until its leading end is near the far wall of the first bend; then swing it round the corner with move calls that turn it a little (10–20°) while carrying its midpoint toward the corner's outer side and on into the next stretch${s.corridor.height - 2 * s.rod.radius > 0.05 ? ', tilting it (one end up, one down) as it turns' : ''}. ` +
    `${n > 1 ? 'Do the same at the second bend. ' : ''}Finally carry it straight out of the open end.`
  );
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<M2Scene> {
  const scene = drawScene(tier, redrawRng('M2', tier, seed, attempt));
  const c = scene.corridor;
  // A ruler along the top of the first stretch's wall, on the side away from the first bend.
  const d0 = segmentDirection(c.points, 0);
  const d1 = segmentDirection(c.points, 1);
  const outward: Vec3 = [-d1[0], 0, -d1[2]];
  const off = c.width / 2 + WALL / 2;
  const top = c.height + WALL + 0.001;
  const p0 = c.points[0];
  const first = Math.abs(c.points[1][0] - p0[0]) + Math.abs(c.points[1][2] - p0[2]);
  const rulers: RulerSpec[] = [
    {
      from: [roundTo(p0[0] + outward[0] * off, 6), top, roundTo(p0[2] + outward[2] * off, 6)],
      to: [roundTo(p0[0] + outward[0] * off + d0[0] * first, 6), top, roundTo(p0[2] + outward[2] * off + d0[2] * first, 6)],
      tickDir: outward,
      minor: 0.01,
      major: 0.1,
    },
    // Across the top of the closed end's wall, from the inside of the wall on the bend's side to
    // the inside of the other: the corridor's width (and, against its ticks, the rod's thickness).
    {
      from: [roundTo(p0[0] - outward[0] * (c.width / 2) - d0[0] * (WALL / 2), 6), top, roundTo(p0[2] - outward[2] * (c.width / 2) - d0[2] * (WALL / 2), 6)],
      to: [roundTo(p0[0] + outward[0] * (c.width / 2) - d0[0] * (WALL / 2), 6), top, roundTo(p0[2] + outward[2] * (c.width / 2) - d0[2] * (WALL / 2), 6)],
      tickDir: [-d0[0], 0, -d0[2]],
      minor: 0.005,
      major: 0.05,
    },
  ];
  const tiltWords = tier === 'L1' ? '' : tier === 'L7' ? ', second bend upward' : ', room to tilt';
  return makeInstance(family, tier, seed, {
    title: `Corridor rod, ${TIERS[tier].bends === 1 ? 'one bend' : 'two bends'}${tiltWords}`,
    rules: rulesText(tier),
    tools: heldPartToolSpecs(M2_TOOLS),
    budgets: { turns: 100, actionsPerTurn: 5, actions: actionBudget(tier) },
    camera: {
      initial: firstCamera(scene, rulers).camera,
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: -WALL, color: '#6f7782' },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<M2Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
