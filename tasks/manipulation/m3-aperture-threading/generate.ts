/**
 * M3 generator: a pure function of (family, tier, seed). It draws the part's cross-section, the
 * walls' slots (the matching one turned by a multiple of 90°, decoys with one cell moved), the
 * part's start in front of the first wall and the goal beyond the last. Every random choice
 * comes from `redrawRng`; a draw that fails a filter is drawn again.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { qaxisAngle, qmul, qnormalize, yawQuat } from '../../../sim/math.ts';
import type { Quat } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { wallFaceRulers } from '../../kits/held-part/rulers.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { CHIRAL_PENTOMINOES, extent, normalise, oneCellMoves, type Cell2 } from '../m1-chiral-peg/polyomino.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { firstCamera } from './view.ts';
import { fitQuat, partRadius, slotRadius } from './geometry.ts';
import { ARROW_SPOTS, BARS, CELL, CHIRAL_TETROMINOES, M3_LEVERS, TIERS, WALL_GAP, WALL_THICKNESS, WORKSPACE, type M3Scene, type M3Slot, type M3Wall, type M3TierSettings } from './scene.ts';
import { m3Tools } from './tools.ts';

function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

/** A uniformly random orientation, tidied for JSON (Shoemake's method). */
function randomQuat(rng: Rng): Quat {
  const u1 = rng.next();
  const u2 = rng.next() * 2 * Math.PI;
  const u3 = rng.next() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return tidyQuat([a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)]);
}

function grid5(x: number): number {
  return roundTo(Math.round(x / 0.005) * 0.005, 3);
}

/** Places slots on one wall without overlap; null when they do not fit. */
function placeSlots(rng: Rng, shapes: Array<{ cells: Cell2[]; kind: M3Slot['kind']; turnDeg: number }>, cell: number, clearance: number, avoid?: { x: number; y: number }): M3Slot[] | null {
  const out: M3Slot[] = [];
  for (const s of shapes) {
    const r = slotRadius(s.cells, cell, clearance);
    let placed = false;
    for (let tries = 0; tries < 60 && !placed; tries++) {
      const x = grid5(rng.range(WORKSPACE.min[0] + r + 0.03, WORKSPACE.max[0] - r - 0.03));
      const y = grid5(rng.range(WORKSPACE.min[1] + r + 0.04, WORKSPACE.max[1] - r - 0.03));
      if (out.some((o) => Math.hypot(o.x - x, o.y - y) < r + slotRadius(o.cells, cell, clearance) + 0.03)) continue;
      // The next wall's match sits well off the last one's, so the part must move across between them.
      if (avoid && s.kind === 'match' && Math.hypot(avoid.x - x, avoid.y - y) < 0.06) continue;
      out.push({ cells: s.cells, x, y, turnDeg: s.turnDeg, kind: s.kind });
      placed = true;
    }
    if (!placed) return null;
  }
  return out;
}

function drawScene(t: M3TierSettings, rng: Rng): M3Scene | null {
  const library = t.shapes === 'bar' ? BARS : t.shapes === 'tetromino' ? CHIRAL_TETROMINOES : CHIRAL_PENTOMINOES;
  const partCells = normalise(rng.pick(Object.values(library)) as Cell2[]);
  const cell = CELL;
  const [w, h] = extent(partCells);
  // Longer than any slot is wide, so the part passes only end-on.
  const depth = roundTo(cell * Math.max(6, Math.max(w, h) + 3), 4);
  const clearance = t.clearance;
  const walls: M3Wall[] = [];
  let turn = 90 * rng.int(0, 3);
  let last: { x: number; y: number } | undefined;
  for (let k = 0; k < t.walls; k++) {
    if (k > 0) turn = (turn + rng.pick([90, 270])) % 360;
    const shapes: Array<{ cells: Cell2[]; kind: M3Slot['kind']; turnDeg: number }> = [{ cells: partCells, kind: 'match', turnDeg: turn }];
    const variants = oneCellMoves(partCells, 4);
    for (let d = 0; d < t.decoys; d++) shapes.push({ cells: normalise(rng.pick(variants)), kind: 'variant', turnDeg: 90 * rng.int(0, 3) });
    const slots = placeSlots(rng, rng.shuffle(shapes), cell, clearance, last);
    if (!slots) return null;
    const z = roundTo(-k * (depth + WALL_GAP + WALL_THICKNESS), 4);
    walls.push({ z, slots });
    const m = slots.find((s) => s.kind === 'match')!;
    last = { x: m.x, y: m.y };
  }
  const probe: M3Scene = { partCells, cell, depth, clearance, wallThickness: WALL_THICKNESS, walls, start: { p: [0, 0, 0], q: [0, 0, 0, 1] }, goal: { p: [0, 0, 0], q: [0, 0, 0, 1] }, frameYawDeg: 0, arrowsAt: ARROW_SPOTS[0] };
  const rad = partRadius(probe);
  const first = walls[0].slots.find((s) => s.kind === 'match')!;
  const lastMatch = walls[walls.length - 1].slots.find((s) => s.kind === 'match')!;
  // The start: in front of the first wall, lying across its slot (L1) or in any orientation.
  const startQ = t.freeStart ? randomQuat(rng) : tidyQuat(qnormalize(qmul(qaxisAngle([0, 1, 0], Math.PI / 2), fitQuat(first))));
  const sx = grid5(rng.range(WORKSPACE.min[0] + rad + 0.01, WORKSPACE.max[0] - rad - 0.01));
  const sy = grid5(rng.range(WORKSPACE.min[1] + rad + 0.01, WORKSPACE.max[1] - rad - 0.01));
  const sz = roundTo(WALL_THICKNESS / 2 + rad + 0.06 + 0.01 * rng.int(0, 4), 4);
  const gz = roundTo(walls[walls.length - 1].z - WALL_THICKNESS / 2 - rad - 0.05, 4);
  const gx = grid5(rng.range(WORKSPACE.min[0] + rad + 0.01, WORKSPACE.max[0] - rad - 0.01));
  const gy = grid5(rng.range(WORKSPACE.min[1] + rad + 0.01, WORKSPACE.max[1] - rad - 0.01));
  const frameYawDeg = t.rotatedFrame ? rng.pick([-60, -45, -30, 30, 45, 60]) : 0;
  return {
    ...probe,
    start: { p: [sx, sy, sz], q: startQ },
    goal: { p: [gx, gy, gz], q: fitQuat(lastMatch) },
    frameYawDeg,
  };
}

/**
 * The episode's action budget: about three times the most actions the reference takes at the
 * tier (2–3 for one wall, 4–6 for two), so a player who reads the slots off the pictures has
 * room for corrections, and a blind prober — who now learns only "ok" or "refused" from a
 * move — cannot afford to feel out the slot's position and turn (issue 36). Refused and
 * rolled-back moves count.
 */
export function actionBudget(tier: Tier): number {
  return TIERS[tier].walls === 1 ? 10 : 18;
}

function rulesText(s: M3Scene, tier: Tier): string {
  const n = s.walls.length;
  const decoys = s.walls[0].slots.length - 1;
  // The part's extents and length vary with the seed: they are read off the rulers, not told
  // (issue 36). The square count and size are the tier's constants.
  return [
    `You hold a part (the orange prism): its cross-section is ${s.partCells.length} squares of ${mm(s.cell)} joined edge to edge, and it is longer than it is wide. ${n === 1 ? 'A wall' : `${n} walls, one behind the other,`} ${mm(s.wallThickness)} thick fill${n === 1 ? 's' : ''} the space between you and the far side.`,
    `Each wall has ${decoys ? `${decoys + 1} slots; exactly one per wall has the outline of the part's cross-section` : "one slot with the outline of the part's cross-section"} (with ${mm(s.clearance)} clearance on every side)${decoys ? '; the others have one square in another place and let nothing through' : ''}. The part is longer than any slot is wide, so it passes only end-first with its cross-section turned onto the slot's outline${TIERS[tier].shapes === 'bar' ? '' : ' — and the outline is not mirror-symmetric, so only one way round fits'}.`,
    `Goal: pass the part through the slot${n > 1 ? 's of every wall in turn' : ''} until all of it is beyond the ${n > 1 ? 'last ' : ''}wall, over the green zone on the floor behind it. The episode ends as soon as it is.`,
    "Frame: the red, green and blue arrows beside the first wall show the working frame's +x, +y and +z axes; +y is straight up." +
      (s.frameYawDeg === 0 ? ' In the first view +x points to the right and +z toward you (the walls are across z).' : ' This frame is NOT lined up with the walls: it is turned about the vertical by an angle you must read from the arrows. All tools use the arrows\' frame.'),
    'Measuring: a ruler runs along the bottom of the first wall\'s near face and another up its left edge, from its bottom-left corner, with ticks every 10 mm and labels every 100 mm.',
    "Tools: translate(dx_m, dy_m, dz_m) moves the part in a straight line; rotate(axis, angle_deg) turns it about its centre (the middle of its bounding box); move(…) does both at once. All are relative to where the part is now.",
    'Every motion is swept along its whole path. If the part would touch a wall, or leave the workspace (a box just as wide and high as the walls), the motion is stopped and rolled back and the rest of that turn is not run.',
    `Budget: ${actionBudget(tier)} actions in all — every translate, rotate and move counts, refused and rolled-back ones too; camera moves are free.`,
  ].join('\n');
}

function planText(s: M3Scene): string {
  return s.walls
    .map((w, i) => {
      const m = w.slots.find((x) => x.kind === 'match')!;
      return `Wall ${i + 1}: the matching slot is centred ${mm(m.x - WORKSPACE.min[0])} from the wall's left edge and ${mm(m.y)} up; turn the part so its length points through the wall and its cross-section lies on that outline, bring it in front of the slot, and push it straight through.`;
    })
    .join(' ');
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<M3Scene> {
  const t = tierSettings('M3', TIERS, tier, lever, M3_LEVERS);
  // A lever study draws from its tier's stream: the seed's L5 world, with the lever on.
  const rng = redrawRng('M3', tier, seed, attempt);
  let scene = drawScene(t, rng);
  for (let k = 0; !scene && k < 20; k++) scene = drawScene(t, rng);
  if (!scene) throw new Error(`M3 ${tier}/${seed}: no slot layout fits`);
  const rulers = wallFaceRulers(WORKSPACE, WALL_THICKNESS);
  const depthSpan = scene.start.p[2] - scene.goal.p[2];
  const frame = yawQuat(scene.frameYawDeg);
  const base: CameraSpec = { azimuth: 24, elevation: 22, distance: roundTo(0.78 + 0.3 * depthSpan, 3), target: [0, 0.14, roundTo(0.3 * scene.start.p[2] + 0.7 * scene.walls[scene.walls.length - 1].z, 3)] };
  const view = firstCamera(scene, base, rulers, frame);
  scene = { ...scene, arrowsAt: view.arrowsAt };
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Aperture threading',
    rules: rulesText(scene, tier),
    budgets: { turns: 100, actionsPerTurn: 5, actions: actionBudget(tier) },
    tools: heldPartToolSpecs(m3Tools(frame)),
    camera: {
      initial: view.camera,
      elevationRange: [-10, 90],
    },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/** The instance of (seed, tier, lever): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<M3Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
