/**
 * M6 generator: a pure function of (family, tier, seed). It cuts the hook's slot (slanted from L3,
 * off-centre from L5) for the tier's clearance and hangs the hook on the frame's top bar, turned
 * 45–60° away from the orientation that lines the slot up. Every random choice comes from
 * `redrawRng`.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { qaxisAngle } from '../../../sim/math.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { SIZES, TIERS, type M6Scene } from './scene.ts';
import { m6Tools } from './tools.ts';

function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

function drawScene(tier: Tier, rng: Rng): M6Scene {
  const t = TIERS[tier];
  const sign = rng.pick([1, -1]);
  const slotAngleDeg = t.slotAngle[1] > 0 ? sign * 5 * rng.int(t.slotAngle[0] / 5, t.slotAngle[1] / 5) : 0;
  const slotOffset = t.slotOffset[1] > 0 ? roundTo(rng.pick([1, -1]) * (t.slotOffset[0] + 0.002 * rng.int(0, Math.round((t.slotOffset[1] - t.slotOffset[0]) / 0.002))), 4) : 0;
  // Turned 45–85° away from the lined-up orientation (45–60° when the slot is straight), toward
  // the frame's own axes, so the hook never turns so far that the top bar jams in its loop.
  const away = 5 * rng.int(9, slotAngleDeg === 0 ? 11 : 17);
  const yawDeg = slotAngleDeg === 0 ? rng.pick([1, -1]) * away : slotAngleDeg - Math.sign(slotAngleDeg) * away;
  const frame = { bar: SIZES.frameBar, width: SIZES.frameWidth, topY: SIZES.topY, baseHeight: SIZES.baseHeight };
  const hook = { bar: SIZES.hookBar, length: SIZES.hookLength, height: SIZES.hookHeight, plateWidth: SIZES.plateWidth, slotAngleDeg, slotOffset, slotWidth: roundTo(SIZES.frameBar + 2 * t.clearance, 4) };
  // Somewhere along the bar, and slid along the hook's loop so the slot is not under the bar.
  const x = roundTo(0.005 * rng.int(-6, 6), 3);
  const z = roundTo(rng.pick([1, -1]) * 0.002 * rng.int(3, 10), 3);
  return {
    frame,
    hook,
    clearance: t.clearance,
    start: { p: [x, SIZES.topY, z], q: tidyQuat(qaxisAngle([0, 1, 0], (yawDeg * Math.PI) / 180)) },
    toolFrame: t.toolFrame,
  };
}

function rulesText(s: M6Scene, tier: Tier): string {
  const t = TIERS[tier];
  return [
    `A fixed frame stands on the floor: a base, two posts and a top bar ${mm(s.frame.bar)} square. You hold a hook (the orange loop of four ${mm(s.hook.bar)} bars, ${mm(s.hook.length)} by ${mm(s.hook.height)} outside) hanging linked round the frame's top bar.`,
    `The hook's bottom bar has a slot cut through it, ${mm(s.hook.slotWidth)} wide — the frame's bar plus ${mm(s.clearance)} on each side${t.slotAngle[1] > 0 ? ', slanted across the bar' : ', square across the bar'}${t.slotOffset[1] > 0 ? ' and not at its middle' : ''}. It is the only way out: the top bar can leave the hook only through it, along it.`,
    'Goal: separate the hook from the frame, until their bounding boxes are apart. The episode ends as soon as they are.',
    "Frame: the red, green and blue arrows on the base show the world's +x (along the top bar), +y (up) and +z (toward you in the first view); translate uses them." +
      (s.toolFrame ? " rotate and move turn about the hook's OWN axes, shown by the small red, green and blue arrows fixed to it, which turn with it." : ' rotate and move turn about axes parallel to them.'),
    'Measuring: a ruler runs along the front of the base and another up the left post, with ticks every 10 mm and labels every 100 mm.',
    "Tools: translate(dx_m, dy_m, dz_m) moves the hook in a straight line; rotate(axis, angle_deg) turns it about the centre of its loop; move(…) does both at once. All are relative to where the hook is now.",
    'Every motion is swept along its whole path. If the hook would touch the frame, or leave the workspace, the motion is stopped and rolled back and the rest of that turn is not run.',
  ].join('\n');
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<M6Scene> {
  const scene = drawScene(tier, redrawRng('M6', tier, seed, attempt));
  const w = scene.frame.width / 2 + scene.frame.bar;
  const rulers: RulerSpec[] = [
    { from: [-w - 0.03, scene.frame.baseHeight + 0.001, 0.05], to: [w + 0.03, scene.frame.baseHeight + 0.001, 0.05], tickDir: [0, 0, 1], minor: 0.01, major: 0.1 },
    { from: [-w - 0.002, scene.frame.baseHeight, scene.frame.bar / 2 + 0.001], to: [-w - 0.002, scene.frame.topY + 0.1, scene.frame.bar / 2 + 0.001], tickDir: [-1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const t = TIERS[tier];
  return makeInstance(family, tier, seed, {
    title: `Unlinking: ${t.slotAngle[1] > 0 ? 'slanted' : 'square'} slot${t.slotOffset[1] > 0 ? ' off the middle' : ''}, ${mm(scene.clearance)} clearance${scene.toolFrame ? ", turns in the hook's own frame" : ''}`,
    rules: rulesText(scene, tier),
    tools: heldPartToolSpecs(m6Tools(scene.toolFrame)),
    camera: { initial: { azimuth: 30, elevation: 28, distance: 0.62, target: [0, 0.15, 0] }, elevationRange: [-10, 90] },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    // The way out is two or three moves once the slot is read; a budget of 60 actions (refused ones
    // included) leaves a player room to adjust, but not a blind random walk hundreds of tries to
    // stumble on the lined-up turn (with 500 it came off on one seed in ten at L3).
    budgets: { turns: 40, actionsPerTurn: 5, actions: 60 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: {
      plan: `Turn the hook about the vertical until the slot in its bottom bar runs along the frame's top bar (${Math.abs(scene.hook.slotAngleDeg)}° from square across the bottom bar); move it along z until the slot is right under the top bar; lift it straight up through the slot, and on up clear of the frame.`,
    },
  });
}

/** The instance of (seed, tier): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<M6Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
