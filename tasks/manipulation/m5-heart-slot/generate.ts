/**
 * M5 generator: a pure function of (family, tier, seed). It places the matching heart opening
 * (turned about the wall's normal from L3) and the decoys on the wall, and the block's start in
 * front of it (face-on, turned, or in any orientation by tier) and the goal beyond it. Every
 * random choice comes from `redrawRng`; a draw that fails a filter is drawn again.
 */
import { frameArrowBoxes, frameArrowPoints, pointsUnderLabels, unseenPoints, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { qaxisAngle, qmul, qnormalize, qrotate, vdot } from '../../../sim/math.ts';
import type { Quat } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { wallFaceRulers } from '../../kits/held-part/rulers.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, InstanceFilter, Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { fitQuat, openingRadius, partRadius } from './geometry.ts';
import { M5_LEVERS, PART, TIERS, TOOL_ARROW_LENGTH, WALL_THICKNESS, WORKSPACE, type M5Opening, type M5Scene, type M5TierSettings } from './scene.ts';
import { m5Tools } from './tools.ts';

/** How far (m) the block's start keeps from the workspace's left and bottom edges beyond its radius: clear of the rulers in the first view. */
const START_CLEAR = { left: 0.1, bottom: 0.07 };
/** The same with the block's own axes drawn (`+tool`): its arrows reach some 4 cm past it, and their heads must stay clear of the labels too (issue 32). */
const START_CLEAR_TOOL = { left: 0.14, bottom: 0.1 };

function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

function grid5(x: number): number {
  return roundTo(Math.round(x / 0.005) * 0.005, 3);
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

function drawScene(t: M5TierSettings, rng: Rng): M5Scene | null {
  const sign = rng.pick([1, -1]);
  const turnDeg = t.openingTurn[1] > 0 ? sign * 5 * rng.int(t.openingTurn[0] / 5, t.openingTurn[1] / 5) : 0;
  const shapes: Array<Omit<M5Opening, 'x' | 'y'>> = [{ kind: 'match', width: PART.width, height: PART.height, turnDeg }];
  for (const d of t.decoys) {
    const dims = d === 'smaller' ? { width: roundTo(PART.width * 0.92, 4), height: roundTo(PART.height * 0.92, 4) } : { width: roundTo(PART.width * 0.86, 4), height: PART.height };
    shapes.push({ kind: d, ...dims, turnDeg: 5 * rng.int(-12, 12) });
  }
  const openings: M5Opening[] = [];
  for (const o of rng.shuffle(shapes)) {
    const r = openingRadius(o, t.clearance);
    let placed = false;
    for (let tries = 0; tries < 80 && !placed; tries++) {
      const x = grid5(rng.range(WORKSPACE.min[0] + r + 0.02, WORKSPACE.max[0] - r - 0.02));
      const y = grid5(rng.range(WORKSPACE.min[1] + r + 0.02, WORKSPACE.max[1] - r - 0.02));
      if (openings.some((q) => Math.hypot(q.x - x, q.y - y) < r + openingRadius(q, t.clearance) + 0.02)) continue;
      openings.push({ ...o, x, y });
      placed = true;
    }
    if (!placed) return null;
  }
  const m = openings.find((o) => o.kind === 'match')!;
  const probe: M5Scene = { part: { ...PART }, clearance: t.clearance, wall: { z: 0, thickness: WALL_THICKNESS, openings }, start: { p: [0, 0, 0], q: [0, 0, 0, 1] }, goal: { p: [0, 0, 0], q: [0, 0, 0, 1] }, toolFrame: t.toolFrame };
  const rad = partRadius(probe);
  let startQ: Quat;
  if (t.start === 'facing') startQ = tidyQuat(qaxisAngle([0, 0, 1], (sign * 5 * rng.int(6, 18) * Math.PI) / 180));
  else if (t.start === 'turned') {
    const yaw = (rng.pick([1, -1]) * 5 * rng.int(6, 14) * Math.PI) / 180;
    const tilt = (rng.pick([1, -1]) * 5 * rng.int(3, 8) * Math.PI) / 180;
    startQ = tidyQuat(qnormalize(qmul(qaxisAngle([1, 0, 0], tilt), qaxisAngle([0, 1, 0], yaw))));
  } else startQ = randomQuat(rng);
  // The first camera sees the block (some 13 cm in front of the wall, from above and to the
  // right) about 5 cm left of and below the wall behind it, so the block starts clear of the
  // rulers' labels along the wall's left edge and bottom: it may not hide or sit under them.
  const clear = t.toolFrame ? START_CLEAR_TOOL : START_CLEAR;
  const start = {
    p: [grid5(rng.range(WORKSPACE.min[0] + rad + clear.left, WORKSPACE.max[0] - rad - 0.01)), grid5(rng.range(WORKSPACE.min[1] + rad + clear.bottom, WORKSPACE.max[1] - rad - 0.01)), roundTo(WALL_THICKNESS / 2 + rad + 0.07, 4)] as [number, number, number],
    q: startQ,
  };
  const goal = {
    p: [grid5(rng.range(WORKSPACE.min[0] + rad + 0.01, WORKSPACE.max[0] - rad - 0.01)), grid5(rng.range(WORKSPACE.min[1] + rad + 0.01, WORKSPACE.max[1] - rad - 0.01)), roundTo(-WALL_THICKNESS / 2 - rad - 0.06, 4)] as [number, number, number],
    q: fitQuat(m),
  };
  return { ...probe, start, goal };
}

/**
 * The episode's action budget: about three times the most actions the reference takes at the
 * tier, so a player who reads the opening off the pictures has room for corrections, and a blind
 * prober — who now learns only "ok" or "refused" from a move — cannot afford to feel out the
 * opening's position and turn (issue 36). Refused and rolled-back moves count.
 */
export function actionBudget(_tier: Tier): number {
  return 10;
}

function rulesText(s: M5Scene, tier: Tier): string {
  const n = s.wall.openings.length;
  return [
    `You hold a heart-shaped block (orange): a heart ${mm(s.part.width)} wide and ${mm(s.part.height)} high, ${mm(s.part.thickness)} thick. In front of it stands a wall ${mm(s.wall.thickness)} thick with ${n === 1 ? 'a heart-shaped opening' : `${n} heart-shaped openings`}.`,
    `${n === 1 ? 'The opening' : 'Exactly one opening'} is the block's heart grown by ${mm(s.clearance)} on every side${n > 1 ? '; the others are smaller or narrower hearts that let nothing through' : ''}. The block passes face-on, its heart turned onto the opening's outline — or turned over about its symmetry axis (a heart is its own mirror image); it is too thick to pass edge-on.`,
    'Goal: pass the block through the opening until all of it is beyond the wall, over the green zone on the floor behind it. The episode ends as soon as it is.',
    "Frame: the red, green and blue arrows beside the wall show the world's +x, +y and +z axes (+x to the right in the first view, +y up, +z toward you); translate uses them." +
      (s.toolFrame ? " rotate and move turn about the block's OWN axes, shown by the small red, green and blue arrows fixed to it, which turn with it." : ' rotate and move turn about axes parallel to them.'),
    "Measuring: a ruler runs along the bottom of the wall's near face and another up its left edge, from its bottom-left corner, with ticks every 10 mm and labels every 100 mm.",
    "Tools: translate(dx_m, dy_m, dz_m) moves the block in a straight line; rotate(axis, angle_deg) turns it about its centre; move(…) does both at once. All are relative to where the block is now.",
    'Every motion is swept along its whole path. If the block would touch the wall, or leave the workspace (a box as wide and high as the wall), the motion is stopped and rolled back and the rest of that turn is not run.',
    `Budget: ${actionBudget(tier)} actions in all — every translate, rotate and move counts, refused and rolled-back ones too; camera moves are free.`,
  ].join('\n');
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<M5Scene> {
  const t = tierSettings('M5', TIERS, tier, lever, M5_LEVERS);
  // A lever study draws from its tier's stream: the seed's L5 world, with the lever on.
  const rng = redrawRng('M5', tier, seed, attempt);
  let scene = drawScene(t, rng);
  for (let k = 0; !scene && k < 20; k++) scene = drawScene(t, rng);
  if (!scene) throw new Error(`M5 ${tier}/${seed}: no opening layout fits`);
  const rulers = wallFaceRulers(WORKSPACE, WALL_THICKNESS);
  const x0 = WORKSPACE.min[0];
  const m = scene.wall.openings.find((o) => o.kind === 'match')!;
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Heart slot',
    rules: rulesText(scene, tier),
    budgets: { turns: 100, actionsPerTurn: 5, actions: actionBudget(tier) },
    tools: heldPartToolSpecs(m5Tools(scene.toolFrame)),
    camera: { initial: { azimuth: 22, elevation: 20, distance: 0.85, target: [0, 0.14, 0.06] }, elevationRange: [-10, 90] },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: {
      plan: `The matching opening is centred ${mm(m.x - x0)} from the wall's left edge and ${mm(m.y)} up, its heart turned ${Math.abs(m.turnDeg)}° ${m.turnDeg >= 0 ? 'counter-clockwise' : 'clockwise'} (as seen from the front) from notch-up. Turn the block face-on to the wall with its heart turned the same way, bring it in front of that opening, and push it straight through.`,
    },
  });
}

/**
 * Under `+tool` the block's axes are drawn from its front face, so that face must turn toward
 * the first camera (the view rule asks to read each arrow), but not straight at it (its +z arrow
 * would then be seen end-on). Every instance with the block's own axes drawn (L7, and a lever
 * study that adds `+tool`) is drawn until it holds; before M5 version 3 L7 kept any start, and
 * its block's red and green arrows lay on a face turned away (issue 32). Since version 4 no
 * ruler label's plate may lie over one of their heads on screen either (issue 32: a "10 cm"
 * plate covered the +x head on one seed in twenty).
 */
const TOOL_ARROWS_FACE_CAMERA: InstanceFilter<M5Scene> = {
  name: 'tool-arrows-face-camera',
  check: (inst) => {
    if (!inst.scene.toolFrame) return null;
    // The instance's own first camera (azimuth 0 looks from +z, 90 from +x; render/camera-spec.ts).
    const a = (inst.camera.initial.azimuth * Math.PI) / 180;
    const e = (inst.camera.initial.elevation * Math.PI) / 180;
    const toCamera: [number, number, number] = [Math.sin(a) * Math.cos(e), Math.sin(e), Math.cos(a) * Math.cos(e)];
    const face = qrotate(inst.scene.start.q, [0, 0, 1]);
    const facing = vdot(face, toCamera);
    if (facing < 0.4) return "the block's front face, where its axes are drawn, is turned away from the first camera";
    if (facing > 0.9) return "the block's front face, where its axes are drawn, faces the first camera square on (its +z arrow is seen end-on)";
    // Nor may a ruler's label plate lie over one of their heads (labels draw over everything).
    const s = inst.scene;
    const heads: SightPoint[] = (['x', 'y', 'z'] as const).flatMap((a) => {
      const axis: [number, number, number] = a === 'x' ? [1, 0, 0] : a === 'y' ? [0, 1, 0] : [0, 0, 1];
      return [1, 1.2].map((k) => {
        const local: [number, number, number] = [axis[0] * 0.035 * k, axis[1] * 0.035 * k, s.part.thickness / 2 + 0.002 + axis[2] * 0.035 * k];
        const w = qrotate(s.start.q, local);
        return { point: [s.start.p[0] + w[0], s.start.p[1] + w[1], s.start.p[2] + w[2]] as [number, number, number], what: `+${a} head of the block's axes` };
      });
    });
    const covered = pointsUnderLabels(inst.camera.initial, inst.rulers ?? [], heads);
    if (covered.length) return `a ruler's label lies over the ${covered[0].what}`;
    // Nor may one arrow hide another, or the wall hide one: seen along the face at a slant, an
    // arrow pointing away can lie behind one pointing toward the camera (M5-L5+tool-s100: the +y
    // shaft 155 of 201 pixels behind the +z arrow). The wall is taken whole (its openings too),
    // so a draw is refused when in doubt.
    const origin = qrotate(s.start.q, [0, 0, s.part.thickness / 2 + 0.002]).map((v, j) => v + s.start.p[j]) as [number, number, number];
    const arrows = frameArrowBoxes(origin, s.start.q, TOOL_ARROW_LENGTH);
    const wallBox: SightBox = {
      center: [0, (WORKSPACE.min[1] + WORKSPACE.max[1]) / 2, s.wall.z],
      half: [(WORKSPACE.max[0] - WORKSPACE.min[0]) / 2, (WORKSPACE.max[1] - WORKSPACE.min[1]) / 2, s.wall.thickness / 2],
    };
    const points = frameArrowPoints(origin, s.start.q, TOOL_ARROW_LENGTH).map((p, i) => ({ ...p, what: `${p.what} of the block's axes`, own: [Math.floor(i / 3)] }));
    const hidden = unseenPoints(inst.camera.initial, points, [...arrows, wallBox]);
    return hidden.length ? `the ${hidden[0].what} is hidden (by another arrow or the wall)` : null;
  },
};

/** The instance of (seed, tier, lever): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<M5Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), [...SHORTCUT_FILTERS, TOOL_ARROWS_FACE_CAMERA]);
}
